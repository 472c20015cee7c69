-- wrk script for bench/pages.py: counts the responses by status and, called with the
-- arguments "etag" and an ETag, sends it as If-None-Match, then each thread's newest
-- ETag, as a browser revalidating its copy does. done() prints one JSON line for pages.py.

counts = {}  -- global: done() reads it from each thread
local etag = nil
local revalidate = false
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  revalidate = args[1] == "etag"
  etag = args[2]
end

function request()
  if revalidate and etag then
    wrk.headers["If-None-Match"] = etag
  end
  return wrk.format(nil)
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  if revalidate then
    etag = headers["ETag"] or headers["Etag"] or headers["etag"] or etag
  end
end

function done(summary, latency, requests)
  local statuses = {}
  for _, thread in ipairs(threads) do
    local c = thread:get("counts") or {}
    for status, n in pairs(c) do
      statuses[status] = (statuses[status] or 0) + n
    end
  end
  local parts = {}
  for status, n in pairs(statuses) do
    table.insert(parts, string.format('"%d": %d', status, n))
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"latency_us": {"mean": %.1f, "p50": %d, "p90": %d, "p99": %d, "max": %d}, ' ..
    '"statuses": {%s}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, table.concat(parts, ", ")))
end
