#!/usr/bin/env bash
# A consumer on "another machine": the example project is published to SeaweedFS S3, then a
# reader in a network namespace of its own (ip netns + a veth pair; no route but the pair's
# /30) reads the current version through DuckDB (check_publish.py valid). The only listener on
# the host's side of the pair forwards to the S3 server, so the reader reaches nothing but S3:
# the published metadata must not need the publisher's catalog, files or network. Needs root
# (ip netns); without it, or when the namespace cannot be made, the test FAILS.
# usage: netns_consumer.sh PATH/TO/databox
set -uo pipefail
source "$(dirname "$0")/lib.sh"
ns="dbxpub$$"
cleanup_extra() {
  [ -n "${forward_pid:-}" ] && kill "$forward_pid" 2>/dev/null
  ip netns del "$ns" 2>/dev/null
  ip link del "${ns}h" 2>/dev/null
  [ -f "$work/svc/s3.pid" ] && "$root/scripts/services/stop" --dir "$work/svc" s3 >/dev/null 2>&1
}
[ "$(id -u)" = 0 ] || fail "needs root for ip netns"
publish_test_begin "${1:-}" "netns_consumer.sh PATH/TO/databox"

step "starting SeaweedFS S3 and publishing to it"
"$root/scripts/services/start-s3" --dir "$work/svc" >"$work/s3.out" 2>&1 ||
  { cat "$work/s3.out"; fail "the S3 server did not start"; }
set -a; source "$work/svc/s3.env"; set +a
DATABOX_S3_ENDPOINT="$S3_ENDPOINT" DATABOX_AWS_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" \
  DATABOX_AWS_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY" db publish --to "s3://$S3_BUCKET/published" \
  >"$work/p.out" 2>&1 || { cat "$work/p.out"; fail "publish failed"; }

step "a network namespace whose only peer is a forwarder to S3"
octet=$(( 1 + $$ % 250 ))
host_ip="10.251.$octet.1" ns_ip="10.251.$octet.2"
ip netns add "$ns" || fail "cannot create network namespace $ns"
ip link add "${ns}h" type veth peer name "${ns}c" || fail "cannot create a veth pair"
ip link set "${ns}c" netns "$ns" || fail "cannot move the veth end into $ns"
ip addr add "$host_ip/30" dev "${ns}h" && ip link set "${ns}h" up || fail "cannot set up ${ns}h"
ip netns exec "$ns" ip addr add "$ns_ip/30" dev "${ns}c" || fail "cannot address ${ns}c"
ip netns exec "$ns" ip link set "${ns}c" up || fail "cannot bring ${ns}c up"
s3_port="${S3_ENDPOINT##*:}"
"$py" - "$host_ip" "$s3_port" >"$work/forward.out" 2>&1 <<'PY' &
import asyncio, sys
host, port = sys.argv[1], int(sys.argv[2])
async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()
async def handle(client_reader, client_writer):
    server_reader, server_writer = await asyncio.open_connection("127.0.0.1", port)
    await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
async def main():
    server = await asyncio.start_server(handle, host, port)
    print("forwarding", flush=True)
    async with server:
        await server.serve_forever()
asyncio.run(main())
PY
forward_pid=$!
for _ in $(seq 50); do grep -q forwarding "$work/forward.out" 2>/dev/null && break; sleep 0.1; done
grep -q forwarding "$work/forward.out" || { cat "$work/forward.out"; fail "the forwarder did not start"; }

step "the consumer in $ns cannot reach the host's loopback S3 port, only the forwarder"
ip netns exec "$ns" "$py" -c "
import socket, sys
s = socket.socket(); s.settimeout(2)
sys.exit(0 if s.connect_ex(('127.0.0.1', $s3_port)) != 0 else 1)" ||
  fail "the namespace reaches 127.0.0.1:$s3_port: it is not isolated"
step "the consumer reads the current version through DuckDB"
ip netns exec "$ns" env S3_ENDPOINT="http://$host_ip:$s3_port" \
  "$py" "$here/check_publish.py" valid "s3://$S3_BUCKET/published" "$ext_dir" ||
  fail "the consumer in $ns cannot read the publication"
echo "PASS publish.netns_consumer"
