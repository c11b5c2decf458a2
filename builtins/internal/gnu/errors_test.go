package gnu_test

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	. "github.com/llmsh/llmsh/builtins/internal/gnu"
)

func TestWriteError(t *testing.T) {
	base := &fs.PathError{Op: "write", Path: "out", Err: syscall.ENOSPC}
	wrapped := fmt.Errorf("copying: %w", WriteError{Err: base})
	if !IsWriteError(wrapped) {
		t.Error("IsWriteError misses a wrapped WriteError")
	}
	if IsWriteError(base) {
		t.Error("IsWriteError takes a read error for a write error")
	}
	if !errors.Is(wrapped, syscall.ENOSPC) {
		t.Error("WriteError hides its errno")
	}
	if got := (WriteError{Err: base}).Error(); got != base.Error() {
		t.Errorf("Error() = %q, want %q", got, base.Error())
	}
	if errors.Is(fmt.Errorf("x: %w", ErrCancelled), base) || !errors.Is(fmt.Errorf("x: %w", ErrCancelled), ErrCancelled) {
		t.Error("ErrCancelled does not match itself through a wrap")
	}
}

// TestStrerror's texts are glibc 2.36's strerror (as GNU cat prints them).
func TestStrerror(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, "No such file or directory"},
		{fmt.Errorf("w: %w", syscall.ENOSPC), "No space left on device"},
		{syscall.EISDIR, "Is a directory"},
		{fs.ErrPermission, "Permission denied"},
		{fs.ErrClosed, "Bad file descriptor"},
		{syscall.Errno(0x4d), syscall.Errno(0x4d).Error()},
		{errors.New("odd"), "odd"},
	} {
		if got := Strerror(tc.err); got != tc.want {
			t.Errorf("Strerror(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
