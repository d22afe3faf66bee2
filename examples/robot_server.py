#!/usr/bin/env python3
"""robot_server.py - your arm behind the socket backend (stdlib only).

The robot side of sim2real.h's socket protocol (version 1; its companion
header sim2real_socket.h, "A robot in another process"), here serving a trivial fake arm: six joints
that follow their targets with a first-order lag.  Replace the marked calls
(DRIVER: ...) with your arm's driver - ur_rtde's RTDEControlInterface /
RTDEReceiveInterface, libfranka's robot.control loop, or a ROS 2 node
publishing joint trajectories and subscribing to /joint_states - and the
whole pipeline (system identification, evaluation, demonstrations, staged
deployment) drives your arm through s2r_socket_robot, unchanged.

    python3 examples/robot_server.py /tmp/arm.sock        # or tcp:127.0.0.1:5555

One client at a time; a client that goes away or sends a malformed message
gets the arm halted.  The arm you announce in the hello (kind, scene, joint
count) must be the one the pipeline loads (s2r_socket_config.robot).
"""
import math
import os
import socket
import struct
import sys

VERSION = 1
JOINTS = 8                                   # joint slots in every message
HEADER = struct.Struct("<IHBBiI")            # magic, version, type, direction, status, payload bytes
MAGIC = 0x53523253                           # "S2RS"
HELLO, RESET, COMMAND, ADVANCE, SENSORS, TRUTH, HALT, PLACE = range(1, 9)
REQUEST_BYTES = {HELLO: 0, RESET: 8 + 8 * (JOINTS + 3) + 32, COMMAND: 8 * JOINTS, ADVANCE: 8,
                 SENSORS: 0, TRUTH: 0, HALT: 0, PLACE: 16}
ERR_INVALID_ARGUMENT, ERR_UNSUPPORTED = -1, -9
UR5E, SCENE_ARM = 0, 0


class FakeArm:
    """Stands in for the driver: joints that follow their targets (time constant TAU)."""
    TAU = 0.05                                                     # s
    HOME = [-1.5708, -1.5708, 1.5708, -1.5708, -1.5708, 0.0]      # rad, the UR5e's home keyframe

    def __init__(self):
        self.n = 6
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


def answer(arm, kind, payload):
    """Run one request on the arm; returns (status, reply payload)."""
    if kind == HELLO:
        name = b"fake arm (robot_server.py)"
        return 0, struct.pack("<iiiid48s", UR5E, SCENE_ARM, arm.n, 0, arm.period, name)
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
        return 0, struct.pack("<%dd" % (1 + 3 * JOINTS + 6), time, *slots(q), *slots(qd), *slots(tau), *target, *obj)
    if kind == TRUTH:
        # DRIVER: an external measurement (motion capture, laser tracker) of the flange; this fake has none.
        zeros3 = [0.0] * 3
        return 0, struct.pack("<%ddii12d" % (9 + JOINTS), *zeros3, *zeros3, *arm.target, *slots(arm.q), 0, 0,
                              *([0.0] * 12))
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


def serve_client(arm, conn, watchdog):
    conn.settimeout(watchdog)
    while True:
        try:
            magic, version, kind, direction, status, size = HEADER.unpack(receive(conn, HEADER.size))
        except socket.timeout:
            arm.halt()                          # silent mid-episode: brakes on, keep listening
            continue
        if magic != MAGIC or version != VERSION or direction != 0 or REQUEST_BYTES.get(kind) != size:
            raise ConnectionError("malformed request")
        status, reply = answer(arm, kind, receive(conn, size))
        if status:
            reply = reply[:127].ljust(128, b"\0")
        conn.sendall(HEADER.pack(MAGIC, VERSION, kind, 1, status, len(reply)) + reply)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: robot_server.py SOCKET_PATH|tcp:HOST:PORT [--clients N]")
    address, clients = sys.argv[1], int(sys.argv[3]) if sys.argv[2:3] == ["--clients"] else 0
    if address.startswith("tcp:"):
        host, port = address[4:].rsplit(":", 1)
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((host, int(port)))
    else:
        if os.path.exists(address):
            os.unlink(address)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(address)
    server.listen(1)
    arm, served = FakeArm(), 0
    print("serving a fake arm at", address, flush=True)
    while clients == 0 or served < clients:
        conn, _ = server.accept()
        if address.startswith("tcp:"):
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            serve_client(arm, conn, watchdog=1.0)
        except (ConnectionError, OSError) as e:
            print("client gone:", e, flush=True)
        arm.halt()                              # the client has gone: brakes on
        conn.close()
        served += 1
    server.close()
    if not address.startswith("tcp:"):
        os.unlink(address)


if __name__ == "__main__":
    main()
