package sessionserver

import (
	"net"

	"golang.org/x/sys/unix"
)

// CheckPeer admits a peer of cred when its uid is uid; PeerCred is the
// credentials of c's peer.
func (forTests) CheckPeer(cred *unix.Ucred, uid int) error { return checkPeer(cred, uid) }
func (forTests) PeerCred(c net.Conn) (*unix.Ucred, error)  { return peerCred(c) }
