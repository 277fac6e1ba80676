# A hostile caller of pvprfd for tests/prfd/daemon.sh, on the socket
# SOCK:
#   slow SOCK SECONDS READY: a request one byte every SECONDS (READY made
#     once the first is sent); prints when the daemon closed the
#     connection ("closed 5.0"), or "open" if it never did
#   many SOCK N HOLD READY: N connections held HOLD seconds (READY made
#     once they are open); prints "refused K RC TEXT" for the K the daemon
#     refused with a reply (the first one's code and words)
import os
import socket
import struct
import sys
import time

path, mode = sys.argv[1], sys.argv[2]
# EXIT of pid 1, as libpvprf sends it (capture/pvprf/prfd.h).
req = struct.pack("<IIIB3xQ", 0x44465250, 0, 5, 8, 1)


def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


if mode == "slow":
    s = conn()
    t0 = time.monotonic()
    for i, b in enumerate(req):
        if i > 0:
            time.sleep(float(sys.argv[3]))
        try:
            s.send(bytes([b]))
            if i == 0:
                open(sys.argv[4], "w").close()
            s.setblocking(False)
            if s.recv(1) == b"":
                break
        except BlockingIOError:
            pass
        except OSError:
            break
        s.setblocking(True)
    else:
        print("open")
        sys.exit(0)
    print("closed %.1f" % (time.monotonic() - t0))
elif mode == "many":
    n, hold = int(sys.argv[3]), float(sys.argv[4])
    socks = [conn() for i in range(n)]
    open(sys.argv[5], "w").close()
    time.sleep(0.5)
    told = []
    for s in socks:
        s.setblocking(False)
        try:
            b = s.recv(16 + 256)
        except OSError:
            continue
        if len(b) >= 16:
            magic, rc, size = struct.unpack_from("<IIQ", b)
            told.append("%d %s" % (rc, b[16:16 + size].decode()))
    time.sleep(hold)
    print("refused %d %s" % (len(told), told[0] if told else "-"))
