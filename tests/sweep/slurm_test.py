#!/usr/bin/env python3
"""`overshade sweep --engine slurm` against a real single-node Slurm.

The test starts munged, slurmctld and slurmd on localhost from a generated
slurm.conf in a temporary directory (its own ports, state, spool and log
folders; proctrack/linuxproc and task/none, so no cgroups are needed),
captures a tiny frame of overshade-demo under the layer, and then:

  waiting    a sweep over msaa=1,4 and the trace at two x through the
             slurm engine (--partition, --time, an --sbatch-arg): it waits,
             gathers, and sweep.csv, jobs.csv and the figures are the bytes
             the local engine writes for the same grid; each job ran as a
             task of the job array (Slurm's output file per task, the
             controller's COMPLETED, the extra sbatch argument applied); a
             status the collecting machine cannot see is named as such.
  no-wait    --no-wait returns at once; job 2's trace does not exist yet
             and job 3's is a FIFO nobody writes, so job 3 hangs: --collect,
             --resubmit-failed and a new sweep into the same folder refuse
             while it runs; it is cancelled, leaving no process behind; --collect names job 2
             with its exit status and job 3 with Slurm's CANCELLED, exits 1
             and keeps job 1's rows; the traces are put in place and
             --resubmit-failed submits jobs 2-3 alone as a new array, waits,
             and the sweep then equals the local engine's; a second
             --resubmit-failed has nothing to do.
  gone       the overshade that submitted a sweep is gone when its task
             starts: --collect names Slurm's FAILED and the task's output.
  errors     a partition the cluster does not have, and more tasks than
             the cluster's MaxArraySize: sbatch's refusal named, exit 1; no sbatch on PATH: named, exit 1; --collect of a folder
             that is no Slurm sweep: named, exit 1.

The daemons are torn down whatever happens: on failure, exception, the
test's own deadline or SIGTERM from meson's timeout by the test itself,
and when even that is cut short (meson's SIGKILL half a second later) by
a reaper in a session of its own, which waits for the test to end and
then kills whatever still names the test's temporary directory (the
jobs' slurmstepd by their SLURM_CONF) and removes the directory.  Skips (77), with the
reason, when slurm-wlm or munge is not installed, when not root (slurmd
runs each job as its user), when lavapipe is missing, or when the daemons
do not come up on this machine.

usage: slurm_test.py --overshade BIN --manifest M --demo DEMO
       slurm_test.py --reap PID DIR     (the reaper, started by the test)
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import FAIL, capture_demo, check, exit_status, parse_args, unavailable  # noqa: E402

DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "squeue", "scontrol", "scancel", "sinfo")
NODE = "overshade-node"
DEADLINE_S = 170


class Deadline(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, n=5):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


class Cluster:
    """munged, slurmctld and slurmd on localhost, all state under `root`."""

    def __init__(self, root):
        self.root = root
        self.procs = []
        self.conf = os.path.join(root, "slurm.conf")
        run = os.path.join(root, "run")
        self.munge_dir = os.path.join(root, "munge")
        self.socket = os.path.join(run, "munge.socket")
        self.log = os.path.join(root, "log")
        # munged wants the socket's folders open to all, its key's closed.
        os.mkdir(root)
        os.chmod(root, 0o755)
        for d, mode in ((run, 0o755), (self.munge_dir, 0o700), (self.log, 0o755),
                        (os.path.join(root, "state"), 0o700),
                        (os.path.join(root, "spool"), 0o755)):
            os.mkdir(d)
            os.chmod(d, mode)
        key = os.path.join(self.munge_dir, "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        with open(self.conf, "w") as f:
            f.write(self.slurm_conf(run))
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("SLURM_", "SBATCH_", "SQUEUE_", "SACCT_"))}
        self.env["SLURM_CONF"] = self.conf

    def slurm_conf(self, run):
        r = self.root
        return "\n".join([
            "# A one-node cluster for tests/sweep/slurm_test.py.",
            "ClusterName=overshade-test",
            "SlurmctldHost=localhost(127.0.0.1)",
            "SlurmctldPort=%d" % free_port(),
            "SlurmdPort=%d" % free_port(),
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            "AuthInfo=socket=" + self.socket,
            "StateSaveLocation=" + os.path.join(r, "state"),
            "SlurmdSpoolDir=" + os.path.join(r, "spool"),
            "SlurmctldPidFile=" + os.path.join(run, "slurmctld.pid"),
            "SlurmdPidFile=" + os.path.join(run, "slurmd.pid"),
            "SlurmctldLogFile=" + os.path.join(self.log, "slurmctld.log"),
            "SlurmdLogFile=" + os.path.join(self.log, "slurmd.log"),
            # No cgroups: processes tracked by parentage, no task binding.
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "SwitchType=switch/none",
            "MpiDefault=none",
            "SchedulerType=sched/builtin",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "ReturnToService=2",
            # Task numbers up to 9: a larger sweep is refused.
            "MaxArraySize=10",
            "NodeName=%s NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN"
            % (NODE, min(2, os.cpu_count() or 1)),
            "PartitionName=debug Nodes=%s Default=YES MaxTime=INFINITE State=UP" % NODE,
            ""])

    def spawn(self, name, cmd):
        out = open(os.path.join(self.log, name + ".out"), "w")
        self.procs.append((name, subprocess.Popen(cmd, env=self.env, stdout=out,
                                                  stderr=subprocess.STDOUT,
                                                  stdin=subprocess.DEVNULL)))
        out.close()

    def client(self, cmd, timeout=30):
        return subprocess.run(cmd, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, universal_newlines=True)

    def wait_for(self, what, ready, seconds=30):
        """None once ready() holds, else why not."""
        end = time.time() + seconds
        while time.time() < end:
            for name, p in self.procs:
                if p.poll() is not None:
                    return "%s exited with %d: %s" % (
                        name, p.returncode,
                        tail(os.path.join(self.log, name + ".log")) or
                        tail(os.path.join(self.log, name + ".out")))
            if ready():
                return None
            time.sleep(0.3)
        return "%s not ready after %d s" % (what, seconds)

    def start(self):
        """None when the cluster is up, else the reason it is not."""
        m = self.munge_dir
        self.spawn("munged", ["munged", "--foreground", "--force",
                              "--key-file=" + os.path.join(m, "munge.key"),
                              "--socket=" + self.socket,
                              "--pid-file=" + os.path.join(m, "munged.pid"),
                              "--log-file=" + os.path.join(self.log, "munged.log"),
                              "--seed-file=" + os.path.join(m, "munged.seed")])
        why = self.wait_for("munged", lambda: os.path.exists(self.socket))
        if why:
            return why
        self.spawn("slurmctld", ["slurmctld", "-D", "-i", "-f", self.conf])
        why = self.wait_for("slurmctld", lambda: "UP" in self.client(["scontrol", "ping"]).stdout)
        if why:
            return why
        self.spawn("slurmd", ["slurmd", "-D", "-N", NODE, "-f", self.conf])
        return self.wait_for("the node", lambda: self.client(
            ["sinfo", "--noheader", "--Node", "--format=%T"]).stdout.strip() == "idle")

    def stop(self, fast=False):
        """Cancels every job (unless `fast`), then ends the daemons (TERM,
        then KILL)."""
        if not fast and any(name == "slurmctld" and p.poll() is None for name, p in self.procs):
            try:
                self.client(["scancel", "--user", str(os.getuid())], timeout=10)
                end = time.time() + 10
                while time.time() < end and self.client(
                        ["squeue", "--noheader"], timeout=10).stdout.strip():
                    time.sleep(0.3)
            except (OSError, subprocess.SubprocessError):
                pass
        for name, p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=1 if fast else 10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        self.procs = []


def run(cmd, cluster, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env or cluster.env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60, universal_newlines=True)
    print("$ " + " ".join(cmd))
    print(p.stdout, end="")
    print(p.stderr, end="", file=sys.stderr)
    return p.returncode, p.stdout, p.stderr


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


# The figures' data and scripts, and their SVGs where gnuplot draws them.
FIGURES = [n + ext for n in ("spc-area", "spc-msaa")
           for ext in (".dat", ".gp") + ((".svg",) if shutil.which("gnuplot") else ())]


def same_output(local, slurm, names=["sweep.csv", "jobs.csv"] + FIGURES):
    for name in names:
        a, b = read_bytes(os.path.join(local, name)), read_bytes(os.path.join(slurm, name))
        check(a is not None and a == b, "%s: %s differs from the local engine's" % (slurm, name))


def job_id(out):
    """The job array id from "... submitted to Slurm as job array N"."""
    for line in out.splitlines():
        if "to Slurm as job array " in line:
            return line.split(" as job array ")[1].split()[0]
    return None


def processes_of(marker):
    """The processes (other than this one) whose command line or
    environment holds `marker`, a path only this test uses: what it
    started, the daemons' slurmstepd (SLURM_CONF) included."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        for what in ("cmdline", "environ"):
            try:
                with open("/proc/%s/%s" % (pid, what), "rb") as f:
                    if marker.encode() in f.read():
                        pids.append(int(pid))
                        break
            except OSError:
                pass
    return pids


def reap(parent, tmp):
    """The test's reaper, in a session of its own: once `parent` has gone
    (SIGKILL from meson's timeout included), kills what is left of its
    processes and removes its directory."""
    while True:
        try:
            os.kill(parent, 0)
        except OSError:
            break
        time.sleep(0.5)
    for pid in processes_of(tmp):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


def wait_for_task(cluster, task, state, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        if "%s %s" % (task, state) in cluster.client(
                ["squeue", "--noheader", "--array", "--format=%i %T"]).stdout:
            return True
        time.sleep(0.3)
    return False


def wait_empty(cluster, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        if not cluster.client(["squeue", "--noheader"]).stdout.strip():
            return True
        time.sleep(0.5)
    return False


def sweeps(args, cluster, tmp):
    os_ = args.overshade
    grid = ["--frames", "3", "--axis", "msaa=1,4", "demo.ovs@0.5", "demo.ovs@2"]

    # Waiting: the same bytes as the local engine.
    rc, _, _ = run([os_, "sweep", "--out", "local", "--jobs", "2"] + grid, cluster, tmp)
    check(rc == 0, "local sweep exited with %d" % rc)
    rc, out, err = run([os_, "sweep", "--engine", "slurm", "--partition", "debug", "--time", "5",
                        "--sbatch-arg=--comment=overshade-test", "--out", "wait"] + grid,
                       cluster, tmp)
    check(rc == 0, "slurm sweep exited with %d" % rc)
    jid = job_id(out)
    check(jid is not None, "no job array id in %r" % out)
    check("4 of 4 tasks ended" in out, "no progress line for the end: %r" % out)
    same_output(os.path.join(tmp, "local"), os.path.join(tmp, "wait"))
    for n in range(1, 5):
        check(os.path.exists(os.path.join(tmp, "wait", "slurm", "%s_%d.out" % (jid, n))),
              "no Slurm output file for task %d" % n)
        state = cluster.client(["scontrol", "--oneliner", "show", "job", "%s_%d" % (jid, n)])
        check("JobState=COMPLETED" in state.stdout and "Comment=overshade-test" in state.stdout,
              "task %d: %r" % (n, state.stdout))
    # A status the collecting machine does not see (an output folder that
    # is not shared): named as such.
    os.remove(os.path.join(tmp, "wait", "jobs", "2", "status"))
    rc, _, err = run([os_, "sweep", "--collect", "wait"], cluster, tmp)
    check(rc == 1 and "Slurm task %s_2, failed: no result, though Slurm says the task COMPLETED: "
          "is the output folder on storage the nodes share?" % jid in err,
          "--collect without job 2's status: %d %r" % (rc, err))

    # --no-wait; a job that fails (its trace does not exist yet) and one
    # that hangs (its trace is a FIFO nobody writes) and is cancelled.
    grid = ["--frames", "3", "--set", "msaa=4", "--axis",
            "trace=demo.ovs@0.5,late.ovs@2,stuck.ovs@8"]
    os.mkfifo(os.path.join(tmp, "stuck.ovs"))
    started = time.time()
    rc, out, _ = run([os_, "sweep", "--engine", "slurm", "--no-wait", "--jobs", "1",
                      "--out", "nowait"] + grid, cluster, tmp)
    check(rc == 0 and time.time() - started < 20, "--no-wait: exit %d after %.1f s"
          % (rc, time.time() - started))
    jid = job_id(out)
    check(jid is not None and "--collect nowait" in out, "--no-wait: %r" % out)
    if jid is None:
        return
    check(wait_for_task(cluster, "%s_3" % jid, "RUNNING"), "task 3 did not start")
    rc, _, err = run([os_, "sweep", "--collect", "nowait"], cluster, tmp)
    check(rc == 1 and "1 task of Slurm job %s still queued or running" % jid in err,
          "--collect while a task runs: exit %d %r" % (rc, err))
    check(not os.path.exists(os.path.join(tmp, "nowait", "sweep.csv")),
          "--collect wrote sweep.csv while a task ran")
    rc, _, err = run([os_, "sweep", "--engine", "slurm", "--out", "nowait"] + grid, cluster, tmp)
    check(rc == 1 and "nowait holds a sweep whose Slurm job %s has 1 task queued or running"
          % jid in err, "a new sweep over a running one: %d %r" % (rc, err))
    rc, _, err = run([os_, "sweep", "--resubmit-failed", "nowait"], cluster, tmp)
    check(rc == 1 and "1 task of Slurm job %s still queued or running" % jid in err,
          "--resubmit-failed while a task runs: %d %r" % (rc, err))
    cluster.client(["scancel", "%s_3" % jid])
    check(wait_empty(cluster), "the array did not end")
    time.sleep(0.5)
    check(not processes_of(os.path.join(tmp, "nowait")),
          "the cancelled task left processes: %r" % processes_of(os.path.join(tmp, "nowait")))
    rc, out, err = run([os_, "sweep", "--collect", "nowait"], cluster, tmp)
    check(rc == 1, "--collect with failed tasks exited with %d" % rc)
    check("job 2 (msaa=4, trace=late.ovs@2), Slurm task %s_2, failed: exit status 1: overshade"
          % jid in err, "job 2 not named with its task: %r" % err)
    check("job 3 (msaa=4, trace=stuck.ovs@8), Slurm task %s_3, failed: no result: Slurm says the "
          "task ended CANCELLED" % jid in err, "job 3 not named as cancelled: %r" % err)
    check("job 1 (" not in err, "job 1 named as failed")
    check("--resubmit-failed nowait" in out, "no resubmit hint: %r" % out)
    with open(os.path.join(tmp, "nowait", "sweep.csv")) as f:
        rows = f.read().splitlines()[1:]
    check(len(rows) == 1 and rows[0].startswith("1,4,demo.ovs,0.5,3,baseline,"),
          "sweep.csv with failed jobs: %r" % rows)

    # The traces in place, the failed jobs alone again.
    os.remove(os.path.join(tmp, "stuck.ovs"))
    for name in ("late.ovs", "stuck.ovs"):
        shutil.copy(os.path.join(tmp, "demo.ovs"), os.path.join(tmp, name))
    rc, _, _ = run([os_, "sweep", "--out", "local-late"] + grid, cluster, tmp)
    check(rc == 0, "local sweep of the late traces exited with %d" % rc)
    rc, out, err = run([os_, "sweep", "--resubmit-failed", "nowait"], cluster, tmp)
    check(rc == 0, "--resubmit-failed exited with %d" % rc)
    check("resubmitting job 2 (msaa=4, trace=late.ovs@2)" in out and
          "resubmitting job 3 (msaa=4, trace=stuck.ovs@8)" in out and "job 1 (" not in out,
          "--resubmit-failed: %r" % out)
    check("2 of 2 tasks ended" in out, "--resubmit-failed did not wait: %r" % out)
    again = job_id(out)
    with open(os.path.join(tmp, "nowait", "slurm", "submitted")) as f:
        check(f.read() == "%s 1-3\n%s 2-3\n" % (jid, again), "slurm/submitted")
    same_output(os.path.join(tmp, "local-late"), os.path.join(tmp, "nowait"))
    rc, out, _ = run([os_, "sweep", "--resubmit-failed", "nowait"], cluster, tmp)
    check(rc == 0 and "nothing to resubmit" in out, "second --resubmit-failed: %d %r" % (rc, out))

    # An overshade the node cannot see: held (SBATCH_HOLD) until the copy
    # that submitted it is gone; the task's own words name it.
    gone = os.path.join(tmp, "bin", "overshade")
    os.mkdir(os.path.dirname(gone))
    shutil.copy(os_, gone)
    rc, out, _ = run([gone, "sweep", "--engine", "slurm", "--no-wait", "--out", "gone",
                      "demo.ovs"], cluster, tmp, dict(cluster.env, SBATCH_HOLD="1"))
    jid = job_id(out)
    check(rc == 0 and jid is not None, "held sweep: %d %r" % (rc, out))
    os.remove(gone)
    cluster.client(["scontrol", "release", str(jid)])
    check(wait_empty(cluster), "the held array did not end")
    rc, _, err = run([os_, "sweep", "--collect", "gone"], cluster, tmp)
    check(rc == 1 and "Slurm task %s_1, failed: no result: Slurm says the task ended FAILED; its "
          "output: " % jid in err and "not found" in err,
          "an overshade the node cannot see: %d %r" % (rc, err))

    # Errors, named.
    rc, _, err = run([os_, "sweep", "--engine", "slurm", "--partition", "nosuch", "--out", "bad"]
                     + grid, cluster, tmp)
    check(rc == 1 and "sbatch refused the job array" in err and "partition" in err,
          "unknown partition: %d %r" % (rc, err))
    env = dict(cluster.env, PATH=os.path.dirname(shutil.which("python3")) + ":/nonexistent")
    if shutil.which("sbatch", path=env["PATH"]) is None:
        rc, _, err = run([os_, "sweep", "--engine", "slurm", "--out", "nosbatch"] + grid,
                         cluster, tmp, env)
        check(rc == 1 and "sbatch not found" in err, "no sbatch: %d %r" % (rc, err))
    rc, _, err = run([os_, "sweep", "--engine", "slurm", "--out", "big", "--axis", "msaa=1,2,4,8",
                      "--axis", "trace=demo.ovs@0.5,demo.ovs@2,demo.ovs@8"], cluster, tmp)
    check(rc == 1 and "sbatch refused the job array" in err and "MaxArraySize" in err,
          "12 tasks past MaxArraySize: %d %r" % (rc, err))
    rc, _, err = run([os_, "sweep", "--collect", "local"], cluster, tmp)
    check(rc == 1 and "local is no sweep submitted to Slurm" in err,
          "--collect of a local sweep: %d %r" % (rc, err))


def main():
    if sys.argv[1:2] == ["--reap"]:
        return reap(int(sys.argv[2]), sys.argv[3])
    args = parse_args("--demo")
    args.overshade, args.demo = os.path.abspath(args.overshade), os.path.abspath(args.demo)
    args.manifest = os.path.abspath(args.manifest)
    missing = [p for p in DAEMONS + CLIENTS if shutil.which(p) is None]
    if missing:
        print("skip: %s not installed (Debian's slurm-wlm and munge; tools/test.sh installs "
              "them)" % ", ".join(missing))
        return 77
    if os.getuid() != 0:
        print("skip: slurmd starts each job as its user, which needs root")
        return 77
    status = unavailable()
    if status:
        return status

    def deadline(signum, frame):
        raise Deadline("signal %d" % signum)

    signal.signal(signal.SIGTERM, deadline)
    signal.signal(signal.SIGALRM, deadline)
    signal.alarm(DEADLINE_S)
    with tempfile.TemporaryDirectory(prefix="overshade-slurm-") as tmp:
        os.chmod(tmp, 0o755)
        subprocess.Popen([sys.executable, os.path.abspath(__file__), "--reap", str(os.getpid()),
                          tmp], start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cluster = Cluster(os.path.join(tmp, "cluster"))
        stopped = False
        try:
            why = cluster.start()
            if why:
                print("skip: the Slurm daemons did not start here: " + why)
                return 77
            work = os.path.join(tmp, "work")
            os.mkdir(work)
            trace = capture_demo(tmp, args, ["--scene", "plane", "--resolution", "96x64",
                                             "--triangle-area", "8"])
            if trace is None:
                return 1
            shutil.move(trace, os.path.join(work, "demo.ovs"))
            sweeps(args, cluster, work)
        except Deadline as e:
            check(False, "stopped by %s after the deadline or meson's timeout" % e)
            stopped = True
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            # meson's SIGKILL follows its SIGTERM by 0.5 s: then no time
            # for scancel (the reaper finishes the job if even this is cut).
            cluster.stop(fast=stopped)
            # Whatever a task left behind (the test's folders are its own).
            for pid in processes_of(tmp):
                os.kill(pid, signal.SIGKILL)
            for name in ("slurmctld", "slurmd"):
                if FAIL:
                    print("--- %s.log\n%s" % (name, tail(os.path.join(cluster.log, name + ".log"),
                                                         20)))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
