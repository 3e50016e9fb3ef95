-- The bot in BizHawk's names: start a game from the title, check a core state round trip.
local frames = 0
event.onframeend(function() frames = frames + 1 end, "counter")
client.SetSoundOn(false)
while mainmemory.read_u8(0x0700) ~= 1 do
  if mainmemory.read_u8(0x0017) == 0x05 and emu.framecount() % 2 == 0 then
    joypad.set({ Start = true }, 1)
  end
  emu.frameadvance()
end
console.log("in play at frame", emu.framecount())
-- The computer moves first; the cursor answers pad 1 on the human slot's turn.
while mainmemory.read_u8(0x0042) ~= 0 or mainmemory.read_u8(0x037F) ~= 2 do emu.frameadvance() end
local id = memorysavestate.savecorestate()
local cursor = mainmemory.read_u8(0x0029)
for i = 1, 12 do
  -- A press is a change: held every other frame.
  if i % 2 == 1 then joypad.set({ ["P1 Right"] = true }) end
  emu.frameadvance()
end
console.log("cursor moved", cursor, "->", mainmemory.read_u8(0x0029))
memorysavestate.loadcorestate(id)
console.log("cursor back", mainmemory.read_u8(0x0029), "frames counted", frames)
client.exit()
