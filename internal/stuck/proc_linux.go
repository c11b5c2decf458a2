package stuck

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// MeterOf returns a meter of another process, pid (a child that runs a
// session): the wall-clock time and the CPU time it has used, read from
// /proc/PID/stat, opened now (a process of that number that comes later
// is never read). Its CPU reads 0 where /proc cannot be read or once the
// process is gone: only the windows judge it then. end closes the file.
func MeterOf(pid int) (meter func() (wall, cpu time.Duration), end func()) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return func() (time.Duration, time.Duration) { return sinceOrigin(), 0 }, func() {}
	}
	buf := make([]byte, 1024)
	return func() (time.Duration, time.Duration) {
		n, _ := f.ReadAt(buf, 0)
		return sinceOrigin(), statCPU(buf[:n])
	}, func() { f.Close() }
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
