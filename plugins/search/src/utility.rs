//! Utility vectors: one value per player, summing to zero.

pub const MAX_PLAYERS: usize = 4;
pub type Utility = [i32; MAX_PLAYERS];

/// Utility of a decided game before the per-ply discount; far above any heuristic value.
pub const WIN: i32 = 1_000_000;
/// Below every reachable utility, small enough that four of them sum without overflow in i64.
pub const NEG_INF: i32 = -1_000_000_000;

/// Makes raw per-player gains zero-sum: each player's gain is charged to the others in equal
/// shares. Scaled by (n - 1) so it stays integral: u_i = n * a_i - sum(a).
#[inline]
pub fn zero_sum(raw: &Utility, players: usize) -> Utility {
    let sum: i32 = raw[..players].iter().sum();
    let mut out = [0; MAX_PLAYERS];
    for i in 0..players {
        out[i] = players as i32 * raw[i] - sum;
    }
    out
}

/// The winner takes everything the others lose; sooner wins are worth more.
pub fn terminal_utility(winner: usize, players: usize, ply: u32) -> Utility {
    let w = WIN - ply as i32;
    let mut out = [0; MAX_PLAYERS];
    for (i, slot) in out.iter_mut().enumerate().take(players) {
        *slot = if i == winner {
            w * (players as i32 - 1)
        } else {
            -w
        };
    }
    out
}

/// The range of every utility a search can meet, for any player: from losing at once to
/// winning at once (heuristic values stay far inside it).
pub fn utility_bounds(players: usize) -> (i32, i32) {
    (-WIN, WIN * (players as i32 - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_sum_vectors_sum_to_zero_and_keep_order() {
        let u = zero_sum(&[30, 10, 20, 0], 3);
        assert_eq!(u.iter().sum::<i32>(), 0);
        assert!(u[0] > u[2] && u[2] > u[1]);
        assert_eq!(u[3], 0);
        assert_eq!(zero_sum(&[5, 3, 0, 0], 2), [2, -2, 0, 0]);
        let t = terminal_utility(1, 4, 3);
        assert_eq!(t.iter().sum::<i32>(), 0);
        assert!(t[1] > 0 && t[0] < 0);
    }
}
