-- A noisy merchant's flood for wrk (bench/lib/wrk-flood.ts): one POST of the same GraphQL body on every connection,
-- with FLOOD_ACCEPT as its Accept header if set, at FLOOD_RATE requests per second, counting the answers by kind. On
-- SIGINT wrk stops and `done` prints one line: `counts {"ok":…,"rateLimited":…,"other":…,"answered":{…}}`, where
-- `answered` counts the answers by the tenth of a second (wall clock, ms / 100) they came in: the rate over any window.
-- The rate is an open-loop schedule (as wrk2's): each request takes the next slot, 1000 / FLOOD_RATE ms after the one
-- before, whatever the answers' latency, so a slow gateway does not slow the flood (a fixed wait per connection did:
-- the rate was connections / (wait + latency)). wrk runs one thread, so the schedule is shared by every connection.
local ffi = require("ffi")
ffi.cdef([[
  typedef struct { long tv_sec; long tv_nsec; } flood_timespec;
  int clock_gettime(int clock, flood_timespec *now);
]])
local CLOCK_REALTIME, CLOCK_MONOTONIC = 0, 1
local timespec = ffi.new("flood_timespec")
local function now_ms(clock)
  ffi.C.clock_gettime(clock or CLOCK_MONOTONIC, timespec)
  return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
end

wrk.method = "POST"
wrk.body = os.getenv("FLOOD_BODY")
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer " .. os.getenv("FLOOD_BEARER")
if os.getenv("FLOOD_ACCEPT") then
  wrk.headers["accept"] = os.getenv("FLOOD_ACCEPT")
end
local interval_ms = 1000 / tonumber(os.getenv("FLOOD_RATE"))
-- Slots missed while every connection waited for an answer are caught up for at most this long, not in one burst.
local CATCH_UP_MS = 50
local next_slot = nil

local threads = {}
function setup(thread)
  thread:set("ok", 0)
  thread:set("limited", 0)
  thread:set("other", 0)
  thread:set("answered", {})
  table.insert(threads, thread)
end

ok, limited, other, answered = 0, 0, 0, {}

function delay()
  local now = now_ms()
  if next_slot == nil or next_slot < now - CATCH_UP_MS then
    next_slot = math.max(next_slot or now, now - CATCH_UP_MS)
  end
  local wait = next_slot - now
  next_slot = next_slot + interval_ms
  return math.max(0, math.floor(wait))
end

function response(status, headers, body)
  local tenth = math.floor(now_ms(CLOCK_REALTIME) / 100)
  answered[tenth] = (answered[tenth] or 0) + 1
  if status == 429 and string.find(body, '"RATE_LIMITED"', 1, true) then
    limited = limited + 1
  elseif status == 200 and not string.find(body, '"errors"', 1, true) then
    ok = ok + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local o, l, x, tenths = 0, 0, 0, {}
  for _, thread in ipairs(threads) do
    o = o + thread:get("ok")
    l = l + thread:get("limited")
    x = x + thread:get("other")
    for tenth, n in pairs(thread:get("answered")) do
      table.insert(tenths, string.format('"%d":%d', tenth, n))
    end
  end
  io.write(string.format('counts {"ok":%d,"rateLimited":%d,"other":%d,"answered":{%s}}\n', o, l, x, table.concat(tenths, ",")))
end
