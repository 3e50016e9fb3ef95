//! Bodies of older savestate versions rewritten as the next version's, one step each, so
//! an old state parses as the current machine with every field present. Each added field
//! takes the value the builds that wrote the older version behaved as if it had.

/// Version 2 bodies parse as version 3 (the parts 3 dropped are ignored as unknown
/// fields), except that early version-2 states lack the PPU's `recent` pixels; they were
/// taken between frames, where those are unused, so zeros stand in.
pub(super) fn v2(body: &str) -> std::borrow::Cow<'_, str> {
    if body.contains(",recent:") {
        return body.into();
    }
    body.replacen(",frame_buffer:", ",recent:(0,0),frame_buffer:", 1)
        .into()
}

/// Fields that builds still writing version 3 added, each with the value a state from before
/// it must take, and the field it follows. Each models a delay that those earlier builds did
/// not have, so in their states nothing is ever waiting:
/// - `pending` (2d59bc9): a $4016 write reached the strobe line at once, and `strobe` holds
///   the line, so no write waits to be put there;
/// - `frame_ack_at` (8acc9cf): a $4015 read cleared the frame IRQ flag at once, so no clear
///   is scheduled (0);
/// - `disable_delay` (2b3f7aa): a $4015 disable stopped the DMC's reader at once (0).
const ADDED_TO_V3: [(&str, &str, &str); 3] = [
    ("strobe", "pending", "None"),
    ("last_4017", "frame_ack_at", "0"),
    ("armed", "disable_delay", "0"),
];

/// Version 3 bodies with the fields of `ADDED_TO_V3` filled in where they are missing
/// (later version-3 states have some or all of them). The fields they follow hold a bare
/// number or boolean, so the value ends at the next `,` or `)`.
pub(super) fn v3(body: &str) -> String {
    let mut body = body.to_string();
    for (after, field, value) in ADDED_TO_V3 {
        // Not a machine if `after` is missing: the parser says so.
        let _ = insert_after(&mut body, 0, after, &format!(",{field}:{value}"));
    }
    body
}

/// Version 4 bodies as version 5. The builds writing 4 had no delays in these places, so
/// nothing is ever under way in their states:
/// - the PPU took a $2001 rendering toggle at once: all three enable stages (`enable_seen`,
///   `enable_later`, `rendering`) hold the one `rendering` value, in the PPU and in the
///   start of a line drawn ahead (`line_start`);
/// - no OAM corruption was modelled: none pending;
/// - the attribute shifters took in the attribute bits of the last reload, which their
///   lowest bits still hold: that is `at_feed` (in `line_start` too, from its shifters);
/// - a sample's end reached the DMC's reader at once: `ending` 0;
/// - sprites were always drawn from the line buffer: the output units are `flat` whenever
///   rendering is on (and were set counting at dot 339, `drawing` 0; their fetches clean,
///   no late start), each counter holding its sprite's X, and the attribute bytes and X
///   are those in secondary OAM. That is exact from dot 321 to the next line's dot 65, where
///   evaluation starts overwriting secondary OAM; states are taken between frames.
pub(super) fn v4(body: &str) -> String {
    let mut b = body.to_string();
    // Not a machine if a field is missing: the parser then says which.
    let _ = upgrade_v4_ppu(&mut b);
    let _ = insert_after(&mut b, 0, "disable_delay", ",ending:0");
    b
}

fn upgrade_v4_ppu(b: &mut String) -> Option<()> {
    let ppu = b.find(",ppu:(")?;
    let rendering = value(b, ppu, "rendering")?;
    let r = b[rendering.clone()].to_string();
    b.replace_range(rendering, &format!("{r},oam_corrupt:None"));
    let at = b[ppu..].find(",rendering:")? + ppu;
    b.insert_str(at, &format!(",enable_seen:{r},enable_later:{r}"));
    let lo: u16 = b[value(b, ppu, "at_lo")?].parse().ok()?;
    let hi: u16 = b[value(b, ppu, "at_hi")?].parse().ok()?;
    insert_after(b, ppu, "pt_hi_latch", &format!(",at_feed:{}", feed(lo, hi)))?;
    upgrade_v4_units(b, ppu, &r)?;

    let start = b.find(",line_start:(")?;
    let r = value(b, start, "rendering")?;
    let was = b[r.clone()].to_string();
    b.replace_range(r, &format!("({was},{was},{was})"));
    let shifters = tuple(b, start, "shifters")?;
    let words: Vec<u16> = numbers(&b[shifters])?;
    let latches = tuple(b, start, "latches")?;
    let f = feed(*words.get(2)?, *words.get(3)?);
    b.insert_str(latches.end, &format!(",{f}"));
    upgrade_v4_units(b, start, &was)
}

/// The sprite output units of the first `sprites` after `from`, from the `secondary_oam`
/// before it (see `v4`).
fn upgrade_v4_units(b: &mut String, from: usize, rendering: &str) -> Option<()> {
    let oam: Vec<u8> = numbers(&b[tuple(b, from, "secondary_oam")?])?;
    let column = |byte: usize| -> Option<String> {
        let v: Vec<String> = (0..8)
            .map(|slot| oam.get(slot * 4 + byte).map(u8::to_string))
            .collect::<Option<_>>()?;
        Some(v.join(","))
    };
    let units = format!(
        ",attrs:({}),x_counter:({}),drawing:0,flat:{rendering},fetch_clean:true,late_start:false",
        column(2)?,
        column(3)?
    );
    let sprites = b[from..].find(",sprites:(")? + from;
    insert_after(b, sprites, "sprite0_line", &units)
}

/// The attribute bits the shifters last took in: their lowest bits.
fn feed(at_lo: u16, at_hi: u16) -> u16 {
    (at_lo & 1) | (at_hi & 1) << 1
}

/// The bare value (number, boolean, `None`) of the first `field` after `from`.
fn value(b: &str, from: usize, field: &str) -> Option<std::ops::Range<usize>> {
    let start = b[from..].find(&format!(",{field}:"))? + from + field.len() + 2;
    let len = b[start..].find([',', ')'])?;
    Some(start..start + len)
}

/// The inside of the tuple value `(..)` of the first `field` after `from`.
fn tuple(b: &str, from: usize, field: &str) -> Option<std::ops::Range<usize>> {
    let start = b[from..].find(&format!(",{field}:("))? + from + field.len() + 3;
    let len = b[start..].find(')')?;
    Some(start..start + len)
}

/// The comma-separated numbers of a tuple's inside.
fn numbers<T: std::str::FromStr>(inside: &str) -> Option<Vec<T>> {
    inside.split(',').map(|n| n.parse().ok()).collect()
}

/// Inserts `text` (`,name:value...`) after the value of the first `field` after `from`,
/// unless a field `name` already follows it.
fn insert_after(b: &mut String, from: usize, field: &str, text: &str) -> Option<()> {
    let end = value(b, from, field)?.end;
    let name = &text[..=text.find(':')?];
    if !b[end..].starts_with(name) {
        b.insert_str(end, text);
    }
    Some(())
}
