print("os.execute", os.execute)
print("io.popen", io.popen)
local ok, err = pcall(io.open, "../../Cargo.toml")
print("outside", ok, err)
local f = io.open("README.md")
print("inside", f ~= nil)
if f then f:close() end
