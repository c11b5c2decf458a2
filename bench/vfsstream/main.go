// Command vfsstream measures vfsclient→vfsd streaming across two real
// processes: it starts a vfsd binary over a pipe pair, reads a file of
// -size bytes through it into io.Discard, writes -size bytes back to a new
// file (-rounds times, each after the same write made straight from this
// process, the kernel's own cost, so that both meet the same load), and
// prints MB/s each way, the CPU time of each side for the writes, and the
// peak RSS of the client (this process) and of vfsd (from its rusage at
// exit). Like llmsh, it shares a
// memory region with vfsd (read_shm, write_shm) unless -no-shm.
//
//	go build -o /tmp/vfsd ./cmd/vfsd
//	go run ./bench/vfsstream -vfsd /tmp/vfsd -size 1G
//
// bench/vfs_stream.sh does both. This is a benchmark, not a test: it prints
// figures and checks only that the byte counts are right.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
	"github.com/llmsh/llmsh/vfsclient"
)

func main() {
	vfsdPath := flag.String("vfsd", "", "vfsd binary to run (required)")
	sizeArg := flag.String("size", "1G", "bytes to stream each way (suffixes K M G)")
	dirArg := flag.String("dir", "", "directory for the data files (default: a new temp dir)")
	prof := flag.String("cpuprofile", "", "write the client's CPU profile here")
	noBulk := flag.Bool("no-bulk", false, "skip hello: read with seed 000's 4 KiB base64 reads, not read_bulk")
	noShm := flag.Bool("no-shm", false, "share no memory region with vfsd: data crosses the pipes only")
	rounds := flag.Int("rounds", 1, "write rounds (each also times a direct write, interleaved)")
	copyMode := flag.Bool("copy", false, "write with io.Copy from a reader (ReadFrom), not 64 KiB Write calls")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintf(os.Stderr, "vfsstream: %v\n", err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if *vfsdPath == "" {
		fmt.Fprintln(os.Stderr, "vfsstream: -vfsd PATH is required")
		os.Exit(2)
	}
	size, err := parseSize(*sizeArg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "vfsstream: %v\n", err)
		os.Exit(2)
	}
	if err := run(*vfsdPath, size, *dirArg, !*noBulk, !*noShm, max(*rounds, 1), *copyMode); err != nil {
		fmt.Fprintf(os.Stderr, "vfsstream: %v\n", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	return n * mult, nil
}

func run(vfsdPath string, size int64, dir string, hello, useShm bool, rounds int, copyMode bool) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "vfsstream")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	src := filepath.Join(dir, "in")
	if err := makeInput(src, size); err != nil {
		return err
	}

	cmd := exec.Command(vfsdPath, "-o", dir)
	cmd.Env = []string{}
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var shm []byte
	if useShm {
		var shmFile *os.File
		if shmFile, shm = earlyvfsd.NewShm(); shmFile != nil {
			cmd.ExtraFiles = []*os.File{shmFile} // descriptor 3 in vfsd
			cmd.Args = append(cmd.Args, "--shm-fd", "3")
			defer shmFile.Close()
		}
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	c := vfsclient.New(out, in)
	if shm != nil {
		c.UseShm(shm)
	}
	if hello {
		// As llmsh does: negotiates read_bulk.
		if _, err := c.Hello(); err != nil {
			return err
		}
	}

	buf := make([]byte, 64<<10)
	t0 := time.Now()
	r, err := c.Open(src)
	if err != nil {
		return err
	}
	n, err := io.CopyBuffer(io.Discard, r, buf)
	if err != nil {
		return err
	}
	r.Close()
	readDur := time.Since(t0)
	if n != size {
		return fmt.Errorf("read %d bytes, want %d", n, size)
	}

	// The write side, rounds times, each round also writing the same
	// bytes straight to a file from this process (the kernel's own cost,
	// the ceiling): both in one run, so the machine's load falls on both.
	var writeDur, directDur time.Duration
	var clientCPU, vfsdCPU, directCPU float64
	for range rounds {
		c0, v0 := selfCPU(), 0.0
		d, err := writeDirect(filepath.Join(dir, "direct"), size, buf)
		if err != nil {
			return err
		}
		directDur += d
		directCPU += selfCPU() - c0
		// Both write a new file: no old one is freed in the timed part.
		os.Remove(filepath.Join(dir, "out"))
		c0, v0 = selfCPU(), procCPU(cmd.Process.Pid)
		t0 := time.Now()
		if err := writeVfsd(c, filepath.Join(dir, "out"), size, buf, copyMode); err != nil {
			return err
		}
		writeDur += time.Since(t0)
		clientCPU += selfCPU() - c0
		vfsdCPU += procCPU(cmd.Process.Pid) - v0
		if st, err := os.Stat(filepath.Join(dir, "out")); err != nil || st.Size() != size {
			return fmt.Errorf("written file: %v (size %d, want %d)", err, st.Size(), size)
		}
	}

	c.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("vfsd: %v", err)
	}
	var self syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	server := cmd.ProcessState.SysUsage().(*syscall.Rusage)

	mb := float64(size) / 1e6
	fmt.Printf("streamed %d bytes each way (vfsclient in this process, vfsd %s, read_bulk %v, shared region %v)\n", size, vfsdPath, hello, shm != nil)
	fmt.Printf("read:  %8.1f MB/s  (%.2fs)\n", mb/readDur.Seconds(), readDur.Seconds())
	way := "64 KiB Write calls"
	if copyMode {
		way = "io.Copy (ReadFrom)"
	}
	r64 := float64(rounds)
	fmt.Printf("write: %8.1f MB/s  (%.2fs a round, %d rounds, %s; client CPU %.2fs, vfsd CPU %.2fs a round)\n",
		mb*r64/writeDur.Seconds(), writeDur.Seconds()/r64, rounds, way, clientCPU/r64, vfsdCPU/r64)
	fmt.Printf("direct write from this process, interleaved: %8.1f MB/s  (%.2fs a round, CPU %.2fs); vfsd/direct time %.2fx\n",
		mb*r64/directDur.Seconds(), directDur.Seconds()/r64, directCPU/r64, writeDur.Seconds()/directDur.Seconds())
	fmt.Printf("peak RSS: client %.1f MB, vfsd %.1f MB\n", float64(self.Maxrss)/1024, float64(server.Maxrss)/1024)
	fmt.Printf("CPU (user+sys, whole run): client %.2fs, vfsd %.2fs\n", cpu(&self), cpu(server))
	return nil
}

// makeInput writes size bytes of real data to src, so that they are in the
// page cache: the read side measures the protocol, not the disk. (A sparse
// file would measure the kernel zeroing pages.)
func makeInput(src string, size int64) error {
	f, err := os.Create(src)
	if err != nil {
		return err
	}
	block := make([]byte, 1<<20)
	for i := range block {
		block[i] = byte('a' + i%26)
	}
	for left := size; left > 0; left -= int64(len(block)) {
		if _, err := f.Write(block[:min(int64(len(block)), left)]); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// writeDirect writes size bytes to name from this process, in Writes of
// len(buf), and reports how long it took, Close included.
func writeDirect(name string, size int64, buf []byte) (time.Duration, error) {
	t0 := time.Now()
	f, err := os.Create(name)
	if err != nil {
		return 0, err
	}
	for left := size; left > 0; left -= int64(len(buf)) {
		if _, err := f.Write(buf[:min(int64(len(buf)), left)]); err != nil {
			f.Close()
			return 0, err
		}
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	return time.Since(t0), os.Remove(name)
}

// writeVfsd writes size bytes to name through vfsd: in Writes of len(buf),
// or with one io.Copy from a reader (the File's ReadFrom) when copyMode.
func writeVfsd(c *vfsclient.Client, name string, size int64, buf []byte, copyMode bool) error {
	w, err := c.Create(name)
	if err != nil {
		return err
	}
	if copyMode {
		_, err = io.Copy(w, io.LimitReader(repeatReader(buf), size))
	}
	for left := size; left > 0 && !copyMode && err == nil; {
		chunk := buf[:min(int64(len(buf)), left)]
		_, err = w.Write(chunk)
		left -= int64(len(chunk))
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// repeatReader reads b over and over.
type repeatReader []byte

func (r repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], r)
	}
	return n, nil
}

// selfCPU is this process's CPU time so far, in seconds.
func selfCPU() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return cpu(&ru)
}

// procCPU is process pid's CPU time so far (user+sys of all its threads,
// from /proc/PID/stat, in clock ticks of 10 ms), in seconds; 0 when it
// cannot be read.
func procCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return float64(u+s) / 100
}

func cpu(r *syscall.Rusage) float64 {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano()).Seconds()
}
