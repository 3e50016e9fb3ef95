-- FCEUX's and BizHawk's libraries, arranged from nesmind's primitives (N, in Rust).
-- H is the plug-in's side: the lists of callbacks it runs each frame.
local N, H, dialect = ...
local bizhawk = dialect == "bizhawk"
local yield = coroutine.yield
local tostring, type, pairs, ipairs, select = tostring, type, pairs, ipairs, select

H.before, H.after, H.exit, H.onsave, H.onload, H.mem = {}, {}, {}, {}, {}, {}
local function run(list, ...)
  for _, f in pairs(list) do f(...) end
end
H.run = run
-- Memory callbacks that matched this frame: ids, addresses and values, in order.
function H.fire(ids, addrs, values)
  for i = 1, #ids do
    local f = H.mem[ids[i]]
    if f then
      if bizhawk then f(addrs[i], values[i], 0) else f(addrs[i], 1, values[i]) end
    end
  end
end
local next_id = 0
local function new_id()
  next_id = next_id + 1
  return "nesmind-callback-" .. next_id
end
local function noop() end
-- A table whose missing functions do nothing and return `default`.
local function noops(t, default)
  return setmetatable(t, { __index = function() return function() return default end end })
end

local running = coroutine.running
local function frameadvance()
  -- Callbacks run on Lua's main thread, where there is nothing to yield.
  if running() == nil then
    error("emu.frameadvance() works in the script's main loop, not in a callback", 2)
  end
  yield()
end

function print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  N.write(table.concat(parts, "\t"))
end

emu = {
  speedmode = noop, pause = noop, unpause = noop, setrenderplanes = noop,
  limitframerate = noop, minimizeframeskip = noop, displayvsync = noop, setislagged = noop,
  addgamegenie = function() return false end,
  delgamegenie = function() return false end,
  frameadvance = frameadvance,
  framecount = function() return N.frame() end,
  lagcount = function() local n = N.lag() return n or 0 end,
  lagged = function() local _, l = N.lag() return l or false end,
  islagged = function() local _, l = N.lag() return l or false end,
  setlagflag = function(v) N.set_lag(v and true or false) end,
  emulating = function() return true end,
  paused = function() return false end,
  poweron = function() N.request("power") end,
  softreset = function() N.request("reset") end,
  exit = function(code) N.request("the script ended the run", code) end,
  print = print,
  message = function(text) N.status(tostring(text)) end,
  getdir = function() return H.dir end,
  registerbefore = function(f) H.before.fceux = f end,
  registerafter = function(f) H.after.fceux = f end,
  registerexit = function(f) H.exit.fceux = f end,
  getscreenpixel = function(x, y) local p = N.pixel(x, y) or 0 return 0, 0, 0, p end,
  getsystemid = function() return "NES" end,
  -- BizHawk: a frame for the GUI to update; headless there is no GUI, so it advances.
  yield = frameadvance,
}

memory = {
  readbyte = N.peek, readbyteunsigned = N.peek,
  readbytesigned = function(a) local v = N.peek(a) return v >= 128 and v - 256 or v end,
  readword = function(lo, hi) return N.peek(lo) + 256 * N.peek(hi or lo + 1) end,
  readwordsigned = function(lo, hi)
    local v = N.peek(lo) + 256 * N.peek(hi or lo + 1)
    return v >= 32768 and v - 65536 or v
  end,
  writebyte = N.poke,
  getregister = N.register,
  readbyterange = function(a, len) return N.range(a, len, bizhawk) end,
}
memory.readwordunsigned = memory.readword
local function register(kind)
  return function(a, size, f)
    if type(size) == "function" or size == nil then f, size = size, 1 end
    for id, k in pairs(H.keys) do
      if k == kind .. ":" .. a then H.mem[id] = nil; N.unwatch(id); H.keys[id] = nil end
    end
    if f then
      local id = new_id()
      H.mem[id], H.keys[id] = f, kind .. ":" .. a
      N.watch(id, kind, a, a + size - 1)
    end
  end
end
H.keys = {}
memory.registerwrite = register("write")
memory.register = memory.registerwrite
memory.registerread = register("read")
memory.registerexec = register("exec")
memory.registerrun, memory.registerexecute = memory.registerexec, memory.registerexec

rom = {
  readbyte = function(a) return N.rom(a) or 0 end,
  readbytesigned = function(a) local v = N.rom(a) or 0 return v >= 128 and v - 256 or v end,
  getfilename = function() return N.rom_name() end,
  gethash = N.hash,
}
debugger = {
  getcyclescount = function() return N.register("cycles") end,
}
ppu = {
  readbyte = N.peek_ppu,
  readbyterange = function(a, len)
    local t = {}
    for i = 0, len - 1 do t[#t + 1] = string.char(N.peek_ppu(a + i)) end
    return table.concat(t)
  end,
}

-- Pad-table keys as (pad or false, bit), worked out once per spelling: scripts set the
-- same few keys every frame.
local keys = {}
local function set_pad(p, t)
  for k, v in pairs(t) do
    local key = keys[k]
    if key == nil then
      local pad, bit = N.key(tostring(k))
      key = bit and { pad or false, bit } or false
      keys[k] = key
    end
    local pad = key and (key[1] or p)
    if pad then N.press(pad, key[2], v ~= false) end
  end
end
joypad = {
  -- FCEUX: set(player, table); BizHawk: set(table [, player]).
  set = function(a, b)
    if type(a) == "table" then set_pad(b, a) else set_pad(a or 1, b) end
  end,
  get = function(p) return N.get_pad(p) end,
  getimmediate = function(p) return N.get_pad(p) end,
  getdown = function(p)
    local t = {}
    for k, v in pairs(N.get_pad(p)) do if v then t[k] = true end end
    return t
  end,
  getup = function(p)
    local t = {}
    for k, v in pairs(N.get_pad(p)) do if not v then t[k] = false end end
    return t
  end,
  setanalog = noop,
}
joypad.read, joypad.write, joypad.readimmediate = joypad.get, joypad.set, joypad.getimmediate
joypad.readdown, joypad.readup = joypad.getdown, joypad.getup

savestate = {
  object = function(slot) return N.state(slot) end,
  create = function(slot) return N.state(slot) end,
  -- FCEUX passes a state object; BizHawk a file name (see files.rs).
  save = function(s)
    if type(s) == "string" then return N.save_file(s) end
    N.save(s); run(H.onsave)
  end,
  load = function(s)
    if type(s) == "string" then return N.load_file(s) end
    N.load(s); run(H.onload)
  end,
  persist = noop,
  saveslot = function(n) N.save_slot(n); run(H.onsave) end,
  loadslot = function(n) N.load_slot(n); run(H.onload) end,
  registersave = function(f) H.onsave.fceux = f end,
  registerload = function(f) H.onload.fceux = f end,
}
memorysavestate = {
  savecorestate = function() return N.save_named() end,
  loadcorestate = function(id) N.load_named(id) end,
  removestate = function(id) N.drop_named(id) end,
  clearstatesfrommemory = function() N.drop_named(nil) end,
}

-- Drawing over the picture (this frame only), in the window and in screenshots.
local function text(x, y, s, fg, bg) N.draw_text(x, y, tostring(s), fg, bg) end
local function box(x1, y1, x2, y2, fill, outline) N.draw_box(x1, y1, x2, y2, fill, outline) end
gui = noops({
  text = text, drawtext = text, pixelText = text, drawString = text,
  drawText = function(x, y, s, fg, bg) text(x, y, s, fg, bg) end,
  pixel = N.draw_pixel, setpixel = N.draw_pixel, drawpixel = N.draw_pixel,
  drawPixel = N.draw_pixel,
  line = N.draw_line, drawline = N.draw_line, drawLine = N.draw_line,
  box = box, drawbox = box, rect = box, drawrect = box,
  -- BizHawk: line colour before the fill.
  drawBox = function(x1, y1, x2, y2, line, fill) box(x1, y1, x2, y2, fill, line) end,
  drawRectangle = function(x, y, w, h, line, fill) box(x, y, x + w, y + h, fill, line) end,
  popup = function(s) print(s) return "ok" end,
  parsecolor = N.parse_color,
  getpixel = function(x, y) local p = N.pixel(x, y) or 0 return 0, 0, 0, p end,
})
input = noops({ get = function() return { xmouse = 0, ymouse = 0 } end })
input.read = input.get
movie = noops({
  active = function() return false end, mode = function() return nil end,
  framecount = function() return N.frame() end, isloaded = function() return false end,
})
movie.frame = movie.framecount

-- BizHawk-only libraries.
local function console_text(v)
  if type(v) ~= "table" then return tostring(v) end
  local parts = {}
  for k, x in pairs(v) do parts[#parts + 1] = '"' .. tostring(k) .. '": "' .. tostring(x) .. '"' end
  table.sort(parts)
  return table.concat(parts, "\n")
end
console = noops({
  log = function(...)
    local parts = {}
    for i = 1, select("#", ...) do parts[#parts + 1] = console_text(select(i, ...)) end
    print(table.concat(parts, " "))
  end,
})
console.writeline, console.write = console.log, console.log
client = noops({
  exit = function() N.request("the script ended the run", 0) end,
  reboot_core = function() N.request("power") end,
  screenwidth = function() return 256 end, screenheight = function() return 240 end,
  bufferwidth = function() return 256 end, bufferheight = function() return 240 end,
  ispaused = function() return false end, isturbo = function() return false end,
  getversion = function() return "nesmind" end,
})
forms = noops({
  gettext = function() return "" end, ischecked = function() return false end,
  getproperty = function() return "" end,
}, 0)
local function on(list)
  return function(f, name)
    local id = new_id()
    list[id] = f
    H.names[id] = name
    return id
  end
end
H.names = {}
local function on_memory(kind)
  return function(f, a, name)
    local id = new_id()
    H.mem[id], H.names[id] = f, name
    if a then N.watch(id, kind, a, a) else N.watch(id, kind, 0, 0xFFFF) end
    return id
  end
end
event = noops({
  onframeend = on(H.after), onframestart = on(H.before), onexit = on(H.exit),
  onsavestate = on(H.onsave), onloadstate = on(H.onload),
  onmemorywrite = on_memory("write"), onmemoryread = on_memory("read"),
  onmemoryexecute = on_memory("exec"),
  unregisterbyid = function(id)
    local found = false
    for _, list in ipairs({ H.after, H.before, H.exit, H.onsave, H.onload, H.mem }) do
      if list[id] then list[id] = nil; found = true end
    end
    N.unwatch(id)
    return found
  end,
  unregisterbyname = function(name)
    local found = false
    for id, n in pairs(H.names) do
      if n == name then found = event.unregisterbyid(id) or found end
    end
    return found
  end,
}, "")

-- BizHawk's memory domains: mainmemory is the 2 KiB of work RAM; memory.* reads the
-- CPU's System Bus unless told otherwise.
local domains = {
  ["RAM"] = { 0x800, function(a) return N.peek(a % 0x800) end, function(a, v) N.poke(a % 0x800, v) end },
  ["System Bus"] = { 0x10000, N.peek, N.poke },
  ["PPU Bus"] = { 0x4000, N.peek_ppu },
  ["OAM"] = { 0x100, N.oam },
  ["PRG ROM"] = { N.rom_size() - 16, function(a) return N.rom(a + 16) or 0 end },
}
local function accessors(t, domain_of)
  local function rd(a, d) local dom = domains[domain_of(d)] or error("no memory domain '" .. tostring(d) .. "'", 3) return dom[2](a) end
  local function wr(a, v, d)
    local dom = domains[domain_of(d)] or error("no memory domain '" .. tostring(d) .. "'", 3)
    if not dom[3] then error("memory domain '" .. domain_of(d) .. "' cannot be written", 3) end
    dom[3](a, v % 256)
  end
  for _, w in ipairs({ 1, 2, 3, 4 }) do
    for _, e in ipairs({ "le", "be" }) do
      local function get(a, d)
        local v = 0
        for i = 0, w - 1 do
          local b = rd(a + i, d)
          if e == "le" then v = v + b * 256 ^ i else v = v * 256 + b end
        end
        return v
      end
      local function put(a, v, d)
        v = v % (256 ^ w)
        for i = 0, w - 1 do
          local b = math.floor(v / 256 ^ i) % 256
          wr(e == "le" and a + i or a + w - 1 - i, b, d)
        end
      end
      local sfx = w == 1 and "" or ("_" .. e)
      local top = 2 ^ (8 * w)
      t["read_u" .. 8 * w .. sfx] = get
      t["read_s" .. 8 * w .. sfx] = function(a, d) local v = get(a, d) return v >= top / 2 and v - top or v end
      t["write_u" .. 8 * w .. sfx] = put
      t["write_s" .. 8 * w .. sfx] = put
    end
  end
  t.readbyte, t.writebyte = rd, wr
  t.readbyterange = function(a, len, d)
    local out = {}
    for i = 0, len - 1 do out[i] = rd(a + i, d) end
    return out
  end
  t.writebyterange = function(values, d) for a, v in pairs(values) do wr(a, v, d) end end
  t.getmemorydomainlist = function() return { "RAM", "System Bus", "PPU Bus", "OAM", "PRG ROM" } end
end
mainmemory = {
  getname = function() return "RAM" end,
  getcurrentmemorydomainsize = function() return 0x800 end,
}
accessors(mainmemory, function() return "RAM" end)
if bizhawk then
  local current = "System Bus"
  accessors(memory, function(d) return d or current end)
  memory.usememorydomain = function(d) if domains[d] then current = d return true end return false end
  memory.getcurrentmemorydomain = function() return current end
  memory.getcurrentmemorydomainsize = function() return domains[current][1] end
  memory.getmemorydomainsize = function(d) return domains[d or current][1] end
end
nesmind = N
