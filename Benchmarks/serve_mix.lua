-- wrk script for Benchmarks/serve.sh: cycles through the request paths in the file $MIX, one per line;
-- each wrk thread starts at a different place so the threads do not ask in lockstep.
local paths = {}
for line in io.lines(os.getenv("MIX")) do
    if #line > 0 then paths[#paths + 1] = line end
end
local index = 0

function setup(thread)
    index = index + 17
    thread:set("index", index)
end

function request()
    index = index + 1
    return wrk.format("GET", paths[(index % #paths) + 1])
end
