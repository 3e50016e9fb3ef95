-- A MarI/O-style search: from a saved state, try each direction, look where the cursor
-- ends up, keep the best, repeat until the cursor is on the target cell.
local target = tonumber(arg.target or "0")
local function waiting() return memory.readbyte(0x0042) == 0 and memory.readbyte(0x037F) == 2 end
local function distance(cell)
  return math.abs(math.floor(cell / 7) - math.floor(target / 7)) + math.abs(cell % 7 - target % 7)
end
-- Start a game and wait for the human slot's turn.
while not waiting() do
  if memory.readbyte(0x0017) == 0x05 and emu.framecount() % 2 == 0 then joypad.set(1, { start = true }) end
  emu.frameadvance()
end
local function try(button)
  joypad.set(1, { [button] = true })
  emu.frameadvance()
  for _ = 1, 8 do emu.frameadvance() end
  return memory.readbyte(0x0029)
end
local here = savestate.object()
local moves = 0
while memory.readbyte(0x0029) ~= target do
  savestate.save(here)
  local best, best_d = nil, distance(memory.readbyte(0x0029))
  for _, button in ipairs({ "up", "down", "left", "right" }) do
    savestate.load(here)
    local d = distance(try(button))
    if d < best_d then best, best_d = button, d end
  end
  savestate.load(here)
  if not best then error("no direction brings the cursor closer") end
  try(best)
  moves = moves + 1
  print(string.format("move %d: %s, cursor %d", moves, best, memory.readbyte(0x0029)))
end
print(string.format("cursor on %d after %d moves, frame %d", target, moves, emu.framecount()))
emu.exit()
