#!/usr/bin/env python3
"""robot_server.py - your arm behind the socket backend (stdlib only).

The robot side of sim2real.h's socket protocol (version 2; its companion
header sim2real_socket.h, "A robot in another process"), here serving a trivial fake arm: six joints
that follow their targets with a first-order lag.  Replace the marked calls
(DRIVER: ...) with your arm's driver - ur_rtde's RTDEControlInterface /
RTDEReceiveInterface, libfranka's robot.control loop, or a ROS 2 node
publishing joint trajectories and subscribing to /joint_states - and the
whole pipeline (system identification, evaluation, demonstrations, staged
deployment) drives your arm through s2r_socket_robot, unchanged.

    python3 examples/robot_server.py /tmp/arm.sock        # or tcp:127.0.0.1:5555

    python3 examples/robot_server.py /tmp/arm.sock --clients 1 --watchdog-ms 1000

One client at a time: another is told the arm is busy (its connect tries
again until its timeout), until the one holding it has been silent
--idle-ms between episodes (default 60000; 0: never): then the next to
connect takes the arm and the silent one's connection is closed.  A client that goes away or sends a malformed
message gets the arm halted; one silent for the watchdog mid-episode too,
and that episode's later requests are answered with the watchdog's error
until a reset.  A path that exists and is not a socket, or a live server's
socket, is refused.  Ctrl-C or SIGTERM halts the arm, removes the path and
exits with status 130.  The arm you announce in the hello (kind, scene,
joint count, joint names and ranges: ARM below) must be the one the
pipeline loads (s2r_socket_config.robot; your own arm: CUSTOM and the
joint names and ranges of the MJCF the client loads): each side refuses a
hello naming another arm, saying how the two differ.  A client that says
bye finished; one whose connection ends without it was lost (the log
says which).  A client of another protocol version is told so.

The same driver plays excitation files and logs them, for identification
from logs (example 12) without a socket:

    python3 examples/robot_server.py --play exc_1.csv log_1.csv --play exc_2.csv log_2.csv

For each pair: the arm to home, a slow smooth move to the file's first row
(at most MOVE_SPEED), held there until still (every joint's readings over
SETTLE_WINDOW spread less than SETTLE_SPEED times it; an arm that will not settle within
SETTLE_MAX is an error, no log), then each row's targets sent at the file's
own rate (1 / its step of t) and the trajectory file 12 reads written from
the settled reading on (t, command_J, q_J, qd_J, its "# rate" line); then
build/12_sysid_from_logs --log log_1.csv ... fits them.  examples/
robot_player.c does the same in C on any backend.
"""
import argparse
import math
import os
import re
import select
import signal
import socket
import stat
import struct
import sys
import time

VERSION = 2
JOINTS = 8                                   # joint slots in every message
HEADER = struct.Struct("<IHBBiI")            # magic, version, type, direction, status, payload bytes
MAGIC = 0x53523253                           # "S2RS"
HELLO, RESET, COMMAND, ADVANCE, SENSORS, TRUTH, HALT, PLACE, BYE = range(1, 10)
ARM_BLOCK = struct.Struct("<iiiiQ32s" + "32s" * JOINTS + "%dd" % (2 * JOINTS))   # the arm in both hellos: 440 bytes
REQUEST_BYTES = {HELLO: ARM_BLOCK.size, RESET: 8 + 8 * (JOINTS + 3) + 32, COMMAND: 8 * JOINTS, ADVANCE: 8,
                 SENSORS: 0, TRUTH: 0, HALT: 0, PLACE: 16, BYE: 0}
ERR_INVALID_ARGUMENT, ERR_MODEL, ERR_STATE, ERR_UNSUPPORTED = -1, -3, -8, -9
UR5E, PANDA, CUSTOM = 0, 1, 2                # s2r_robot_kind
SCENE_ARM, SCENE_PUSH = 0, 1                 # s2r_scene
ROBOT, SCENE = UR5E, SCENE_ARM               # this fake arm: six joints at the UR5e's home
# The arm announced in the hello, as the client's model has it: the MJCF's model name, its joint names and
# ranges (rad, within 1e-3: S2R_SOCKET_RANGE_TOL).  Here the built-in UR5e's; your arm: your MJCF's (a client
# with --mjcf FILE that differs says what it loaded).  Digest 0: this side does not compile the MJCF, so the
# client checks names and ranges only (sim2real_socket.h: s2r_socket_arm_digest).
ARM = {"model": "ur5e", "digest": 0,
       "joints": [("shoulder_pan", -6.2832, 6.2832), ("shoulder_lift", -6.2832, 6.2832), ("elbow", -3.1416, 3.1416),
                  ("wrist_1", -6.2832, 6.2832), ("wrist_2", -6.2832, 6.2832), ("wrist_3", -6.2832, 6.2832)]}
RANGE_TOL = 1e-3                             # rad
KIND_NAMES, SCENE_NAMES = ("ur5e", "panda", "custom"), ("arm", "push")


class FakeArm:
    """Stands in for the driver: joints that follow their targets (time constant TAU)."""
    TAU = 0.05                                                     # s
    HOME = [-1.5708, -1.5708, 1.5708, -1.5708, -1.5708, 0.0]      # rad, the UR5e's home keyframe

    def __init__(self):
        self.n = len(ARM["joints"])
        self.period = 0.002                   # s, the servo cycle announced in the hello
        self.reset(None, None)

    def reset(self, q0, target):
        # DRIVER: move to q0 slowly (RTDE moveJ, a libfranka motion generator), wait until at rest.
        self.q = list(q0) if q0 else list(self.HOME)
        self.qd = [0.0] * self.n
        self.goal = list(self.q)
        self.target = list(target) if target else [0.5, 0.0, 0.4]   # where the marker was put
        self.time = 0.0
        self.halted = False

    def command(self, q):
        # DRIVER: store the servo targets; the control loop sends them (RTDE servoJ, a ROS 2 JointTrajectory).
        if not self.halted:
            self.goal = list(q[:self.n])

    def advance(self, seconds):
        # DRIVER: let `seconds` of real time pass at the control rate (RTDE waitPeriod, a ROS 2 rate.sleep()).
        a = 1.0 - math.exp(-seconds / self.TAU)
        for j in range(self.n):
            step = (self.goal[j] - self.q[j]) * a
            self.qd[j] = step / seconds if seconds > 0 else 0.0
            self.q[j] += step
        self.time += seconds

    def sensors(self):
        # DRIVER: the latest joint positions, velocities, torques (RTDE getActualQ/QD, /joint_states) and
        # the target as your camera sees it.
        return self.time, self.q, self.qd, [0.0] * self.n, self.target, [0.0, 0.0, 0.0]

    def halt(self):
        # DRIVER: a protective stop below the command path (RTDE stopJ, libfranka's stop()).
        self.goal = list(self.q)
        self.halted = True


def slots(values):
    return list(values) + [0.0] * (JOINTS - len(values))


def sensors_short(n, **fields):
    """What a reading lacks, in a sentence naming the field; None if whole. Never padded: a joint the driver
    dropped would be logged as 0 rad while its command moves."""
    for name, values in fields.items():
        want = 3 if name in ("target", "object") else n
        if len(values) != want:
            return "sensors: the driver gave %d values of %s, the arm has %d" % (len(values), name, want)
    return None


def arm_block():
    """This side's arm, as both hellos carry it."""
    names = [name.encode()[:31] for name, _, _ in ARM["joints"]] + [b""] * (JOINTS - len(ARM["joints"]))
    ranges = slots([lo for _, lo, _ in ARM["joints"]]) + slots([hi for _, _, hi in ARM["joints"]])
    return ARM_BLOCK.pack(ROBOT, SCENE, len(ARM["joints"]), 0, ARM["digest"], ARM["model"].encode()[:31], *names, *ranges)


def field_text(field):
    return field.split(b"\0", 1)[0].decode(errors="replace")


def arm_differs(payload):
    """How the client's arm (its hello) differs from this one, in a sentence naming both; None if the same."""
    values = ARM_BLOCK.unpack(payload)
    kind, scene, n, _, digest, model = values[:6]
    names, lo, hi = [field_text(v) for v in values[6:6 + JOINTS]], values[6 + JOINTS:6 + 2 * JOINTS], values[6 + 2 * JOINTS:]
    mine = ARM["joints"]
    if kind != ROBOT or (kind != CUSTOM and scene != SCENE):
        return "the client's arm is a %s (%s scene, %d joints), this robot side's a %s (%s scene, %d joints)" % (
            KIND_NAMES[kind] if 0 <= kind < 3 else kind, SCENE_NAMES[scene] if 0 <= scene < 2 else scene, n,
            KIND_NAMES[ROBOT], SCENE_NAMES[SCENE], len(mine))
    if n != len(mine):
        return "the client's arm '%s' has %d joints, this robot side's '%s' %d" % (field_text(model), n, ARM["model"], len(mine))
    for j, (name, low, high) in enumerate(mine):
        if names[j] != name[:31] or not abs(lo[j] - low) <= RANGE_TOL or not abs(hi[j] - high) <= RANGE_TOL:
            return "joint %d is '%s' [%.4f, %.4f] rad in the client's '%s', '%s' [%.4f, %.4f] in this robot side's '%s'" % (
                j + 1, names[j], lo[j], hi[j], field_text(model), name, low, high, ARM["model"])
    return None                                 # the digest: this side computes none


def answer(arm, kind, payload):
    """Run one request on the arm; returns (status, reply payload)."""
    if kind == HELLO:
        # The arm announced (ARM above): as the client loads it.  Your own arm: ROBOT = CUSTOM and ARM from the
        # MJCF the client loads (robot_client --mjcf FILE, s2r_socket_config.mjcf_path).  Another arm is refused.
        differs = arm_differs(payload)
        if differs:
            return ERR_MODEL, differs.encode()
        name = b"fake arm (robot_server.py)"
        return 0, arm_block() + struct.pack("<d48s", arm.period, name)
    if kind == RESET:
        flags, _ = struct.unpack_from("<II", payload)
        q0 = struct.unpack_from("<%dd" % JOINTS, payload, 8)[:arm.n]
        target = struct.unpack_from("<3d", payload, 8 + 8 * JOINTS)
        if any(not math.isfinite(v) for v in q0 + target):
            return ERR_INVALID_ARGUMENT, b"start pose or target contains NaN or Inf"
        arm.reset(q0 if flags & 1 else None, target if flags & 2 else None)
        return 0, payload[-32:]                 # the generator's state, echoed: this arm draws nothing
    if kind == COMMAND:
        q = struct.unpack("<%dd" % JOINTS, payload)
        if any(not math.isfinite(v) for v in q[:arm.n]):
            return ERR_INVALID_ARGUMENT, b"command contains NaN or Inf"
        arm.command(q)
        return 0, b""
    if kind == ADVANCE:
        (seconds,) = struct.unpack("<d", payload)
        if not 0 <= seconds <= 1:
            return ERR_INVALID_ARGUMENT, b"advance: seconds outside [0, 1]"
        arm.advance(seconds)
        return 0, b""
    if kind == SENSORS:
        time, q, qd, tau, target, obj = arm.sensors()
        short = sensors_short(arm.n, q=q, qd=qd, tau=tau, target=target, object=obj)
        if short:                               # a driver that dropped a joint (a /joint_states missing a name)
            return ERR_STATE, short.encode()
        return 0, struct.pack("<%dd" % (1 + 3 * JOINTS + 6), time, *slots(q), *slots(qd), *slots(tau), *target, *obj)
    if kind == TRUTH:
        # OWNER: fill this from an external measurement of the flange (motion capture, a laser tracker):
        # flange position (m) and velocity (m/s), the target (m), the joints (rad), diverged 0, the object
        # (push: 12 numbers).  Evaluation's outcome is read from it; with none, say so rather than send zeros
        # (evaluation, demonstrations and 06 then stop, saying there is no ground truth).
        return ERR_UNSUPPORTED, b"truth: this arm has no external measurement of its flange (fill answer()'s TRUTH)"
    if kind == HALT:
        arm.halt()
        return 0, b""
    return ERR_UNSUPPORTED, b"this arm has no object to place"


def receive(conn, size):
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the client went away")
        data += chunk
    return data


def reply(conn, kind, status, payload):
    if status:
        payload = payload[:127].ljust(128, b"\0")
    conn.sendall(HEADER.pack(MAGIC, VERSION, kind, 1, status, len(payload)) + payload)


def refuse_busy(server, since, last, idle):
    """A connection while a client holds the arm (since `since`, silent since `last`, giving way after `idle` s
    of silence between episodes): its hello answered busy, then closed."""
    conn, _ = server.accept()
    conn.settimeout(0.02)
    try:
        conn.recv(HEADER.size + ARM_BLOCK.size)  # its hello, read before the answer (a TCP close with it unread resets)
    except OSError:
        pass                                    # said nothing yet: it is told all the same
    now = time.monotonic()
    if idle > 0:
        text = ("busy: another client has held this arm for %.1f s (silent %.1f s; gives way after %.1f s between "
                "episodes)" % (now - since, now - last, idle))
    else:
        text = "busy: another client has held this arm for %.1f s; one client at a time" % (now - since)
    try:
        reply(conn, HELLO, ERR_STATE, text.encode())
    except OSError:
        pass
    conn.close()
    print("a connection refused:", text, flush=True)


HELLO_GRACE = 0.1                            # s: a client says hello as it connects; one silent this long holds nothing


def went_away(number, greeted, in_episode):
    """A client gone without a bye, between requests or in the middle of one: said when it had said hello."""
    if greeted:
        print("client %d lost%s: its connection closed without a bye (the client killed, or the network), the arm "
              "halted" % (number, " mid-episode" if in_episode else " between episodes"), flush=True)
    else:
        print("a connection closed before its hello", flush=True)
    return greeted


def serve_client(arm, server, conn, watchdog, idle, number):
    """Requests until the client goes: its hello first, within the watchdog; then silence
    for the watchdog mid-episode halts the arm, and that episode's later requests (but
    halt) are answered with the watchdog's error until a reset.  Connections arriving
    meanwhile are told the arm is busy (or take its place if it has been silent HELLO_GRACE since it came,
    or, once a client, `idle` s between episodes; idle 0: never).  Returns whether the hello was answered."""
    since, greeted, in_episode, halted = time.monotonic(), False, False, b""
    deadline, last = since + watchdog, since

    while True:
        watched = not greeted or in_episode
        ready, _, _ = select.select([conn, server], [], [], max(0.0, deadline - time.monotonic()) if watched else None)
        if server in ready and conn not in ready:
            if not greeted and time.monotonic() - since >= HELLO_GRACE:
                print("a connection silent for %.0f ms gave way to the next one" % (1e3 * (time.monotonic() - since)),
                      flush=True)
                return False                    # silent since it came: the next one's turn
            if greeted and not in_episode and idle > 0 and time.monotonic() - last >= idle:
                print("client %d gave way, its connection closed: silent %.1f s between episodes (idle_ms %d) when "
                      "another connected" % (number, time.monotonic() - last, round(idle * 1000)), flush=True)
                return True                     # stopped or hung: the next one's turn
            refuse_busy(server, since, last, idle)
        if conn not in ready:
            if not watched or time.monotonic() < deadline:
                continue
            if not greeted:
                print("a connection dropped: no hello within %d ms" % round(watchdog * 1000), flush=True)
                return False                    # no hello in time: not a client
            arm.halt()                          # silent mid-episode: brakes on, the episode is over
            halted = (b"the robot side's watchdog halted the arm: no request for %d ms mid-episode; this episode "
                      b"is over (reset to start another)" % round(watchdog * 1000))
            print("client %d: %s" % (number, halted[17:].decode()), flush=True)
            in_episode = False
            continue
        conn.settimeout(watchdog)
        try:
            magic, version, kind, direction, status, size = HEADER.unpack(receive(conn, HEADER.size))
            if magic == MAGIC and version != VERSION and not greeted:   # another version's client: told in its header
                text = ("socket protocol %d: this robot side speaks protocol %d; build both sides from one "
                        "sim2real_socket.h" % (version, VERSION)).encode()
                conn.sendall(HEADER.pack(MAGIC, version, HELLO, 1, ERR_UNSUPPORTED, 128) + text[:127].ljust(128, b"\0"))
                print("a connection refused: it speaks socket protocol %d, this robot side %d" % (version, VERSION),
                      flush=True)
                return False
            if magic != MAGIC or version != VERSION or direction != 0 or REQUEST_BYTES.get(kind) != size:
                raise ValueError("a malformed request (magic, version, type or size)")
            payload = receive(conn, size)
        except ConnectionError:                 # gone between requests or in the middle of one
            return went_away(number, greeted, in_episode)
        except ValueError as e:
            raise ConnectionError(str(e)) from None
        if kind == BYE:                         # the client finished: no reply
            print("client %d finished (it said bye), the arm halted" % number if greeted
                  else "a connection said bye before its hello", flush=True)
            return greeted
        if not greeted and kind != HELLO:
            status, payload = ERR_STATE, b"request before hello: a client opens with hello"
        elif halted and kind not in (RESET, HALT, HELLO):
            status, payload = ERR_STATE, halted
        else:
            status, payload = answer(arm, kind, payload)
        if kind == HELLO and status == 0 and not greeted:
            print("client %d connected (hello answered)" % number, flush=True)
        greeted = greeted or (kind == HELLO and status == 0)
        if kind == RESET and status == 0:
            in_episode, halted = True, b""
        if kind in (COMMAND, ADVANCE, PLACE) and status == 0:
            in_episode = True                   # the arm moves on the client's word: watched, reset or not
        if kind == HALT:
            in_episode = False
        try:
            reply(conn, kind, status, payload)
        except ConnectionError:                 # gone before its answer
            return went_away(number, greeted, in_episode)
        if not greeted and kind == HELLO and status == ERR_MODEL:
            print("a connection refused: its hello names another arm:", payload.decode(errors="replace"), flush=True)
            return False
        if not greeted:
            print("a connection dropped:", payload.rstrip(b"\0").decode(errors="replace"), flush=True)
            return False
        last = time.monotonic()
        deadline = last + watchdog


DECIMAL = re.compile(r"^(0|[1-9][0-9]{0,4})$")   # no sign, blank or leading zero


def parse_tcp(address):
    """tcp:HOST:PORT, strictly as the C side reads it: HOST localhost or four decimal octets, PORT 1..65535;
    0.0.0.0 (every interface: the protocol has no authentication) refused."""
    host, _, port = address[4:].rpartition(":")
    if not DECIMAL.match(port) or not 1 <= int(port) <= 65535:
        sys.exit("robot_server.py: address %r: expected tcp:HOST:PORT, PORT a decimal 1 to 65535 without sign or "
                 "leading zero" % address)
    octets = host.split(".")
    if host != "localhost" and (len(octets) != 4 or not all(DECIMAL.match(o) and int(o) <= 255 for o in octets)):
        sys.exit("robot_server.py: address %r: HOST must be localhost or a numeric IPv4 address (four decimals 0 "
                 "to 255, no leading zeros)" % address)
    if host == "0.0.0.0":
        sys.exit("robot_server.py: address %r: 0.0.0.0 is every network interface - anyone who reaches this machine "
                 "could drive the arm (the protocol has no authentication): give the one interface's address "
                 "(tcp:192.168.1.10:PORT) or localhost" % address)
    return ("127.0.0.1" if host == "localhost" else host), int(port)


def listen(address):
    """Bind and listen.  A Unix path left by a server that is gone is replaced; a live
    server's socket, or anything that is not a socket, is refused and left as it is."""
    if address[:4].lower() == "tcp:" and not address.startswith("tcp:"):
        sys.exit("robot_server.py: address %r: write tcp: in lower case (tcp:HOST:PORT)" % address)
    if address.startswith("tcp:"):
        host, port = parse_tcp(address)
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((host, port))
    else:
        if os.path.lexists(address):
            if not stat.S_ISSOCK(os.lstat(address).st_mode):
                sys.exit("robot_server.py: cannot serve at %s: it exists and is not a socket; remove it or give "
                         "another path" % address)
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(address)
                sys.exit("robot_server.py: cannot serve at %s: another server is live there" % address)
            except OSError:
                os.unlink(address)              # left by a server that is gone
            finally:
                probe.close()
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(address)
    server.listen(4)
    return server


MOVE_SPEED = 0.3                             # rad/s, the move to an excitation's first row (smoothstep peak)
SETTLE_SPEED = 0.01                          # rad/s: readings over SETTLE_WINDOW spread less than this x it
SETTLE_WINDOW = 0.2                          # s
SETTLE_MAX = 10.0                            # s: not settled by then is an error


def read_excitation(path, n):
    """An excitation file (12 --write-excitation): rows of t and command_1..command_n, and its period (the
    median step of t, s).  '#' lines are comments; a "# rate R Hz" line must agree with t."""
    rows, header, claimed = [], None, None
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("#"):
                words = line[1:].split()
                if header is None and claimed is None and len(words) >= 3 and words[0] == "rate" and words[2] == "Hz":
                    claimed = float(words[1])
                continue
            if not line:
                continue
            if header is None:
                header = [c.strip() for c in line.split(",")]
                expect = ["t"] + ["command_%d" % (j + 1) for j in range(n)]
                if header != expect:
                    raise ValueError("%s, line %d: the columns are %s; this arm's excitation has %s"
                                     % (path, number, ",".join(header), ",".join(expect)))
                continue
            values = [float(v) for v in line.split(",")]
            if len(values) != n + 1 or not all(math.isfinite(v) for v in values) or (rows and values[0] <= rows[-1][0]):
                raise ValueError("%s, line %d: not %d finite numbers after the last row's time" % (path, number, n + 1))
            rows.append(values)
    if len(rows) < 2:
        raise ValueError("%s: fewer than two rows" % path)
    steps = sorted(b[0] - a[0] for a, b in zip(rows, rows[1:]))
    period = steps[len(steps) // 2]
    if claimed and abs(1 / period - claimed) > 0.01 * claimed:
        raise ValueError("%s: its header says %g Hz, its t steps at %.4g Hz" % (path, claimed, 1 / period))
    return rows, 1 / claimed if claimed else period


def settle(arm, q, period):
    """Hold the targets q until the arm is still; returns the settled reading (q, qd)."""
    window, past, waited = math.ceil(SETTLE_WINDOW / period - 1e-9), [], 0.0
    while True:
        arm.command(q)
        arm.advance(period)                     # DRIVER: one period of real time at the control rate
        waited += period
        _, now, qd, _, _, _ = arm.sensors()
        past.append(list(now[:arm.n]))
        if len(past) > window + 1:
            past.pop(0)
        if len(past) == window + 1:
            # the spread of the window's readings: a ring whose period is the window's moves in it too
            worst = max(max(column) - min(column) for column in zip(*past)) / (window * period)
            if worst < SETTLE_SPEED:
                return list(now[:arm.n]), list(qd[:arm.n])
        if waited >= SETTLE_MAX:
            raise RuntimeError("the arm did not settle at the first row within %g s (still moving at %.3g rad/s over "
                               "%g s; SETTLE_SPEED is %g)" % (SETTLE_MAX, worst, SETTLE_WINDOW, SETTLE_SPEED))


def play(arm, excitation, log):
    """Play one excitation file on the arm and write its log (the trajectory file example 12 reads)."""
    rows, period = read_excitation(excitation, arm.n)
    start = rows[0][1:]
    arm.reset(None, None)                       # DRIVER: the arm at home, at rest
    _, here, _, _, _, _ = arm.sensors()
    here = list(here[:arm.n])
    steps = max(1, math.ceil(max(1.875 * abs(b - a) for a, b in zip(here, start)) / MOVE_SPEED / period))
    for k in range(1, steps + 1):               # the slow move: smoothstep, peak speed MOVE_SPEED
        u = k / steps
        w = u * u * u * (10 - 15 * u + 6 * u * u)
        arm.command([a + (b - a) * w for a, b in zip(here, start)])
        arm.advance(period)
    q, qd = settle(arm, start, period)
    out = ["# robot_server.py: %s played at %.6g Hz after settling at its first row" % (excitation, 1 / period),
           "# rate %.15g Hz (a row every %.15g s)" % (1 / period, period),
           ",".join(["t"] + ["command_%d" % j for j in range(1, arm.n + 1)] + ["q_%d" % j for j in range(1, arm.n + 1)]
                    + ["qd_%d" % j for j in range(1, arm.n + 1)])]
    for k in range(len(rows) + 1):              # row k: command k sent at k periods, the reading just before it acts
        command = rows[min(k, len(rows) - 1)][1:]
        out.append(",".join(repr(v) for v in [round(k * period, 12)] + command + q + qd))
        if k < len(rows):
            arm.command(command)
            arm.advance(period)                 # DRIVER: one period of real time
            _, now, speed, _, _, _ = arm.sensors()
            q, qd = list(now[:arm.n]), list(speed[:arm.n])
    arm.halt()
    with open(log, "w") as f:
        f.write("\n".join(out) + "\n")
    print("played %s: %d rows at %g Hz; wrote %s" % (excitation, len(rows), 1 / period, log), flush=True)


def main():
    parser = argparse.ArgumentParser(description="The robot side of sim2real.h's socket protocol, on a fake arm.")
    parser.add_argument("address", nargs="?", help="a Unix socket path or tcp:HOST:PORT")
    parser.add_argument("--play", nargs=2, action="append", metavar=("EXCITATION", "LOG"),
                        help="play an excitation file on the arm and write its log (repeatable); no serving")
    parser.add_argument("--clients", type=int, default=0, help="serve this many clients, then exit (0: until stopped)")
    parser.add_argument("--watchdog-ms", type=int, default=1000, help="halt the arm after this silence mid-episode")
    parser.add_argument("--idle-ms", type=int, default=60000,
                        help="a client silent this long between episodes gives way to the next (0: never)")
    args = parser.parse_args()
    if args.clients < 0 or args.watchdog_ms < 1 or args.idle_ms < 0:
        parser.error("--clients must be >= 0, --watchdog-ms >= 1 and --idle-ms >= 0")
    if args.play:
        if args.address:
            parser.error("--play plays on the arm here: give no address")
        excitations = [excitation for excitation, _ in args.play]
        for _, log in args.play:   # a log written over an excitation loses what is played
            for excitation in excitations:
                if log == excitation or (os.path.exists(log) and os.path.exists(excitation) and
                                         os.path.samefile(log, excitation)):
                    parser.error("the log %s is the excitation %s: writing it would overwrite what is played - "
                                 "give the log another path" % (log, excitation))
        arm = FakeArm()
        try:
            for excitation, log in args.play:
                play(arm, excitation, log)
        except (OSError, ValueError, RuntimeError) as e:
            arm.halt()
            sys.exit("robot_server.py: %s" % e)
        return
    if not args.address:
        parser.error("an address (a Unix socket path or tcp:HOST:PORT) is needed, or --play")
    server, arm, served = listen(args.address), FakeArm(), 0
    stop = []

    def on_stop(signum, frame):                 # Ctrl-C, SIGTERM: halt the arm, remove the path, status 130
        stop.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_stop)
    signal.signal(signal.SIGTERM, on_stop)
    print("serving a fake arm at", args.address, flush=True)
    try:
        while args.clients == 0 or served < args.clients:
            conn, _ = server.accept()
            if args.address.startswith("tcp:"):
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                served += serve_client(arm, server, conn, args.watchdog_ms / 1000.0, args.idle_ms / 1000.0, served + 1)
            except (ConnectionError, OSError, struct.error) as e:
                served += 1
                print("client %d dropped, the arm halted: %s" % (served, e), flush=True)
            arm.halt()                          # the client has gone: brakes on
            conn.close()
    except KeyboardInterrupt:
        arm.halt()
    server.close()
    if not args.address.startswith("tcp:"):
        os.unlink(args.address)
    if stop:
        sys.exit(130)


if __name__ == "__main__":
    main()
