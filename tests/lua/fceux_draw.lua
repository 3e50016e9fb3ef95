-- Draws a box, a line, a pixel and text each frame; the test reads them back from the
-- screenshot.
while true do
  gui.box(10, 20, 40, 50, "blue", "red")
  gui.line(0, 100, 255, 100, "#00FF00FF")
  gui.pixel(200, 200, "white")
  gui.text(60, 150, "HI", "yellow", "black")
  emu.frameadvance()
end
