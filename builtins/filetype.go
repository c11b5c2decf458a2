package builtins

import "io/fs"

// fileType describes the type of a file as GNU's tools name it: ls -l's
// letter, stat's %F text and the st_mode type bits.
type fileType struct {
	letter byte
	text   string // "" for a regular file (stat says empty or not)
	bits   uint32
}

// fileTypes, in the order the mode bits are tested.
var fileTypes = []struct {
	mask fs.FileMode
	t    fileType
}{
	{fs.ModeSymlink, fileType{'l', "symbolic link", 0o120000}},
	{fs.ModeDir, fileType{'d', "directory", 0o040000}},
	{fs.ModeNamedPipe, fileType{'p', "fifo", 0o010000}},
	{fs.ModeSocket, fileType{'s', "socket", 0o140000}},
	{fs.ModeCharDevice, fileType{'c', "character special file", 0o020000}},
	{fs.ModeDevice, fileType{'b', "block special file", 0o060000}},
}

// typeOf is the type of a file of mode m.
func typeOf(m fs.FileMode) fileType {
	for _, ft := range fileTypes {
		if m&ft.mask != 0 {
			return ft.t
		}
	}
	return fileType{'-', "", 0o100000}
}

// typeText is stat's %F for a file of mode m and size size.
func typeText(m fs.FileMode, size int64) string {
	switch t := typeOf(m); {
	case t.text != "":
		return t.text
	case size == 0:
		return "regular empty file"
	}
	return "regular file"
}

// deviceNumbers are the major and minor numbers of a device the shell
// serves (/dev/null is 1,3, /dev/zero 1,5, /dev/tty 5,0: Linux's fixed
// numbers), from a FileInfo that tells them; ok is false for any other
// file.
func deviceNumbers(fi fs.FileInfo) (major, minor uint32, ok bool) {
	d, ok := fi.(interface{ DeviceNumbers() (uint32, uint32) })
	if !ok || fi.Mode()&fs.ModeDevice == 0 {
		return 0, 0, false
	}
	major, minor = d.DeviceNumbers()
	return major, minor, true
}
