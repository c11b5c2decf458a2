package sessionserver

import (
	"errors"
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// peerCred is the credentials of the process at the other end of c, as the
// kernel recorded them at connect (SO_PEERCRED).
func peerCred(c net.Conn) (*unix.Ucred, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil, errors.New("not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return nil, err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return nil, err
	}
	if cerr != nil {
		return nil, fmt.Errorf("reading peer credentials: %w", cerr)
	}
	return cred, nil
}

// checkPeer admits a peer whose uid is uid (the server's own) and no
// other: a session may grant any path the server's uid can reach.
func checkPeer(cred *unix.Ucred, uid int) error {
	if cred == nil {
		return errors.New("no peer credentials")
	}
	if int64(cred.Uid) != int64(uid) {
		return fmt.Errorf("peer uid %d is not the server's uid %d", cred.Uid, uid)
	}
	return nil
}
