// A fault-injecting HTTP proxy in front of s3server.js, for hq-archive's
// tests.   node faultproxy.js UPSTREAM_PORT PLAN LOG   -> "PORT n"
// PLAN is read at each request and its first line used up (an empty or
// missing file: pass through):
//   500        answer 500 InternalError
//   503 N      answer 503 SlowDown with Retry-After: N
//   drop       close the connection before answering
//   cut N      pass the answer but close after N bytes of its body
//   stall      never answer (a test kills the client meanwhile)
// LOG gets "METHOD URL signed|UNSIGNED STATUS" a request, so a test can
// check that every request hq made was signed.
'use strict'
const http = require('node:http')
const fs = require('node:fs')
const [up, plan, log] = [Number(process.argv[2]), process.argv[3], process.argv[4]]
function next() {
  let lines = []
  try { lines = fs.readFileSync(plan, 'utf8').split('\n').filter(Boolean) } catch {}
  if (!lines.length) return ['pass']
  fs.writeFileSync(plan, lines.slice(1).map((l) => l + '\n').join(''))
  const l = lines[0].trim(), i = l.indexOf(' ')
  return i < 0 ? [l] : [l.slice(0, i), l.slice(i + 1)]
}
const xml = (code) => '<?xml version="1.0" encoding="UTF-8"?>\n' +
  `<Error><Code>${code}</Code><Message>injected</Message></Error>`
const srv = http.createServer((req, res) => {
  const [act, arg] = next()
  const signed = /^AWS4-HMAC-SHA256 Credential=/.test(req.headers.authorization || '')
  const note = (st) => fs.appendFileSync(log,
    `${req.method} ${req.url} ${signed ? 'signed' : 'UNSIGNED'} ${st}\n`)
  if (act === '500' || act === '503') {
    note(act)
    req.resume()
    const h = { 'content-type': 'application/xml' }
    if (act === '503') h['retry-after'] = arg || '1'
    res.writeHead(Number(act), h)
    return res.end(xml(act === '500' ? 'InternalError' : 'SlowDown'))
  }
  if (act === 'drop') { note('drop'); return req.socket.destroy() }
  if (act === 'stall') { note('stall'); return }
  const p = http.request({ host: '127.0.0.1', port: up, method: req.method,
    path: req.url, headers: req.headers }, (pr) => {
    note(String(pr.statusCode) + (act === 'cut' ? ' cut' : ''))
    res.writeHead(pr.statusCode, pr.headers)
    if (act !== 'cut') return pr.pipe(res)
    let left = Number(arg)
    pr.on('data', (d) => {
      if (left <= 0) return
      if (d.length >= left) {
        const n = left
        left = 0
        return res.write(d.subarray(0, n), () => res.socket.destroy())
      }
      res.write(d)
      left -= d.length
    })
    pr.on('end', () => res.end())
  })
  p.on('error', () => res.socket.destroy())
  req.pipe(p)
})
srv.keepAliveTimeout = 1000
srv.listen(0, '127.0.0.1', () => process.stdout.write(`PORT ${srv.address().port}\n`))
process.on('SIGTERM', () => { srv.closeAllConnections(); srv.close(() => process.exit(0)) })
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()
