package stuck

import (
	"bytes"
	"io"
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

// self is what processReady reads of this process: its /proc/PID
// directory, its task directory, open for listing, and each thread's
// schedstat file, by thread id. They are opened by Prepare or at the
// first reading (not at package init, which every start of vfsd would
// run) and read again through the descriptors: once Landlock forbids
// every open (the llmsh command and a session's worker confine
// themselves so), a file opened after it is refused (session 30, red
// team: the ready time read 0 there, so the judge's ReadyShare could
// never tell a starved run from a waiting one).
var self struct {
	once  sync.Once
	mu    sync.Mutex
	root  *os.Root
	task  *os.File
	stats map[string]*os.File
}

// Prepare opens this process's files that Meter reads, so that it still
// reads them once the process has confined itself with Landlock: call
// it just before. A thread started later is opened when first seen,
// which Landlock refuses: its wait is not counted (a Go process starts
// most of its threads early: the llmsh command had 6 from its first
// 50 ms to its end).
func Prepare() { processReady() }

func openSelf() {
	r, err := os.OpenRoot("/proc/" + strconv.Itoa(os.Getpid()))
	if err != nil {
		return
	}
	t, err := r.Open("task")
	if err != nil {
		r.Close()
		return
	}
	self.root, self.task, self.stats = r, t, map[string]*os.File{}
}

// processReady is the time this process's threads have waited for a CPU.
func processReady() time.Duration {
	self.once.Do(openSelf)
	self.mu.Lock()
	defer self.mu.Unlock()
	if self.task == nil {
		return 0
	}
	if _, err := self.task.Seek(0, io.SeekStart); err != nil {
		return 0
	}
	tids, _ := self.task.Readdirnames(-1)
	buf := make([]byte, 128)
	var sum time.Duration
	live := make(map[string]bool, len(tids))
	for _, tid := range tids {
		live[tid] = true
		f := self.stats[tid]
		if f == nil {
			var err error
			if f, err = self.root.Open("task/" + tid + "/schedstat"); err != nil {
				continue // the thread has ended, or Landlock refuses
			}
			self.stats[tid] = f
		}
		n, _ := f.ReadAt(buf, 0)
		sum += schedWait(buf[:n])
	}
	for tid, f := range self.stats {
		if !live[tid] {
			f.Close()
			delete(self.stats, tid)
		}
	}
	return sum
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
		sum += schedWait(buf[:n])
	}
	return sum
}

// schedWait is the run-queue wait of a schedstat line: its second
// field, in nanoseconds; 0 when the line is not one.
func schedWait(line []byte) time.Duration {
	if fields := bytes.Fields(line); len(fields) >= 2 {
		if ns, err := strconv.ParseInt(string(fields[1]), 10, 64); err == nil {
			return time.Duration(ns)
		}
	}
	return 0
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
