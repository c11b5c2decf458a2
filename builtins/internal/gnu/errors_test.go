package gnu

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
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
