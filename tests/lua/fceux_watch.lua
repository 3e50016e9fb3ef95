-- Prints the screen byte ($0017) whenever it changes, and every write of the game state.
memory.registerwrite(0x0700, function(address, size, value)
  print(string.format("write $%04X = %d at frame %d", address, value, emu.framecount()))
end)
local last = nil
for _ = 1, 60 do
  if emu.framecount() == 20 then joypad.set(1, { start = true }) end
  local screen = memory.readbyte(0x0017)
  if screen ~= last then
    print(string.format("frame %d screen %02X", emu.framecount(), screen))
    last = screen
  end
  emu.frameadvance()
end
-- Frames in which the game read no pad (while it starts up).
print(string.format("lag frames %d, last lagged %s", emu.lagcount(), tostring(emu.lagged())))
