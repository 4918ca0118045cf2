#!/usr/bin/env python3
"""Prints the work a saved finale table file records (seconds, nodes): header words 5-6."""
import struct, sys, os, time
for p in sys.argv[1:]:
    with open(p, 'rb') as f:
        head = f.read(16 + 8 * 7)
    w = struct.unpack('<7Q', head[16:])
    secs = struct.unpack('<d', struct.pack('<Q', w[5]))[0]
    age = time.time() - os.path.getmtime(p)
    print(f"{p}: {secs/3600:.2f} h, {w[6]/1e9:.1f} G nodes (saved {age/60:.0f} min ago)")
