-- wrk script for bench/serve_load.sh: POSTs one prepared KServe v2 request (binary tensor
-- extension). Env: BODY (file with JSON header + binary data), HLEN (JSON header length),
-- PATH_INFER (request path).
local f = assert(io.open(os.getenv("BODY"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.path = os.getenv("PATH_INFER")
wrk.headers["Content-Type"] = "application/octet-stream"
wrk.headers["Inference-Header-Content-Length"] = os.getenv("HLEN")

local failed = 0
response = function(status, headers, body)
  if status ~= 200 then failed = failed + 1 end
end

done = function(summary, latency, requests)
  local s = summary
  io.write(string.format("RESULT requests=%d errors_http=%d errors_socket=%d rps=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f\n",
    s.requests, s.errors.status, s.errors.connect + s.errors.read + s.errors.write + s.errors.timeout,
    s.requests / (s.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
end
