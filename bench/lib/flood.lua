-- A noisy merchant's flood for wrk (bench/lib/wrk-flood.ts): one POST of the same GraphQL body on every connection,
-- with FLOOD_ACCEPT as its Accept header if set, each connection waiting FLOOD_DELAY_MS before its next request (the rate: connections / delay), counting the
-- answers by kind. On SIGINT wrk stops and `done` prints one line: `counts {"ok":…,"rateLimited":…,"other":…}`.
wrk.method = "POST"
wrk.body = os.getenv("FLOOD_BODY")
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer " .. os.getenv("FLOOD_BEARER")
if os.getenv("FLOOD_ACCEPT") then
  wrk.headers["accept"] = os.getenv("FLOOD_ACCEPT")
end
local delay_ms = tonumber(os.getenv("FLOOD_DELAY_MS"))

local threads = {}
function setup(thread)
  thread:set("ok", 0)
  thread:set("limited", 0)
  thread:set("other", 0)
  table.insert(threads, thread)
end

ok, limited, other = 0, 0, 0

function delay()
  return delay_ms
end

function response(status, headers, body)
  if status == 429 and string.find(body, '"RATE_LIMITED"', 1, true) then
    limited = limited + 1
  elseif status == 200 and not string.find(body, '"errors"', 1, true) then
    ok = ok + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local o, l, x = 0, 0, 0
  for _, thread in ipairs(threads) do
    o = o + thread:get("ok")
    l = l + thread:get("limited")
    x = x + thread:get("other")
  end
  io.write(string.format('counts {"ok":%d,"rateLimited":%d,"other":%d}\n', o, l, x))
end
