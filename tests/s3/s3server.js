// A real S3 server for hq-archive's tests: @20minutes/s3rver on a free
// loopback port (port 0: the kernel picks), "PORT n" on stdout when ready.
//   node --openssl-legacy-provider s3server.js DIR BUCKET ACCESS SECRET
// (s3rver encrypts list continuation tokens with DES, which OpenSSL 3 has
// only in its legacy provider: without the flag a long list gets 500.)
// It checks Signature V4 (a wrong secret gets 403 SignatureDoesNotMatch)
// but lets a request with no signature at all through: faultproxy.js logs
// whether each request was signed. It stops on SIGTERM or when its stdin
// closes (the test that started it died).
'use strict'
const path = require('node:path')
const S3rver = require(path.join(__dirname, 'node_modules/@20minutes/s3rver'))
const [dir, bucket, ak, sk] = process.argv.slice(2)
require(path.join(__dirname, 'node_modules/@20minutes/s3rver/lib/models/account'))
  .DUMMY_ACCOUNT.createKeyPair(ak, sk)
const s = new S3rver({
  port: 0,
  address: '127.0.0.1',
  directory: dir,
  silent: true,
  serviceEndpoint: 'localhost',
  configureBuckets: [{ name: bucket }],
})
s.run().then((a) => process.stdout.write(`PORT ${a.port}\n`),
  (e) => { console.error(e); process.exit(1) })
const stop = () => {
  if (s.httpServer) s.httpServer.closeAllConnections()
  s.close().then(() => process.exit(0), () => process.exit(0))
}
process.on('SIGTERM', stop)
process.stdin.on('end', stop)
process.stdin.resume()
