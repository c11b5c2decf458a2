package stuck

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"time"
)

// MeterOf returns a meter of another process, pid (a child that runs a
// session): the wall-clock time, the CPU time it has used, read from
// /proc/PID/stat, and the time its threads waited for a CPU, from their
// schedstat; /proc/PID is opened now (a process of that number that
// comes later is never read). Its CPU and wait read 0 where /proc cannot
// be read or once the process is gone: only the windows judge it then.
// end closes the files.
func MeterOf(pid int) (meter func() (wall, cpu, ready time.Duration), end func()) {
	root, err := os.OpenRoot("/proc/" + strconv.Itoa(pid))
	if err != nil {
		return func() (time.Duration, time.Duration, time.Duration) { return sinceOrigin(), 0, 0 }, func() {}
	}
	f, err := root.Open("stat")
	if err != nil {
		root.Close()
		return func() (time.Duration, time.Duration, time.Duration) { return sinceOrigin(), 0, 0 }, func() {}
	}
	buf := make([]byte, 1024)
	return func() (time.Duration, time.Duration, time.Duration) {
			n, _ := f.ReadAt(buf, 0)
			return sinceOrigin(), statCPU(buf[:n]), readyIn(root, buf)
		}, func() {
			f.Close()
			root.Close()
		}
}

// self is this process's /proc directory, opened at the first reading
// (not at package init, which every start of vfsd would run).
var (
	selfOnce sync.Once
	self     *os.Root
)

// processReady is the time this process's threads have waited for a CPU.
func processReady() time.Duration {
	selfOnce.Do(func() { self, _ = os.OpenRoot("/proc/" + strconv.Itoa(os.Getpid())) })
	r := self
	if r == nil {
		return 0
	}
	return readyIn(r, make([]byte, 128))
}

// readyIn sums the run-queue wait of the threads of the process whose
// /proc directory is root: the second field of task/TID/schedstat (in
// nanoseconds), 0 where it cannot be read (a kernel without schedstat).
func readyIn(root *os.Root, buf []byte) time.Duration {
	d, err := root.Open("task")
	if err != nil {
		return 0
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	var sum time.Duration
	for _, tid := range tids {
		f, err := root.Open("task/" + tid + "/schedstat")
		if err != nil {
			continue // the thread has ended
		}
		n, _ := f.Read(buf)
		f.Close()
		if fields := bytes.Fields(buf[:n]); len(fields) >= 2 {
			if ns, err := strconv.ParseInt(string(fields[1]), 10, 64); err == nil {
				sum += time.Duration(ns)
			}
		}
	}
	return sum
}

// statCPU is utime + stime of a /proc/PID/stat line (fields 14 and 15,
// in clock ticks: USER_HZ, 100 on Linux); 0 when the line is not one.
func statCPU(line []byte) time.Duration {
	// The command's name (field 2) is in parentheses and may hold
	// anything: the fields that follow start after its last ')'.
	i := bytes.LastIndexByte(line, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(line[i+1:]) // f[0] is field 3
	if len(f) < 13 {
		return 0
	}
	u, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	s, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(u+s) * (time.Second / 100)
}
