local function score(t)
  return t.points + 1
end
for _ = 1, 3 do emu.frameadvance() end
print(score(nil))
