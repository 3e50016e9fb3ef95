-- Presses Start on the title screen until a game is in play, then ends the run.
while memory.readbyte(0x0700) ~= 1 do
  if memory.readbyte(0x0017) == 0x05 and emu.framecount() % 2 == 0 then
    joypad.set(1, { start = true })
  end
  emu.frameadvance()
end
print("in play at frame " .. emu.framecount())
emu.exit()
