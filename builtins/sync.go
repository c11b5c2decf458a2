package builtins

import (
	"os"
)

var _ = register(Builtin{Name: "sync", Summary: "synchronize cached writes to persistent storage", Run: syncCmd})

func syncCmd(env *Env) int {
	f := NewFlags(env, "Synchronize cached writes to persistent storage\n\n"+
		"If one or more files are specified, sync only them,\n"+
		"or their containing file systems.\n\n"+
		"In llmsh vfsd has written every file a command closed before the command's\n"+
		"status was final: sync checks that the files can be opened.", "[OPTION] [FILE]...")
	data := f.Bool('d', "data", "sync only file data, no unneeded metadata")
	fsys := f.Bool('f', "file-system", "sync the file systems that contain the files")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *data && *fsys {
		env.Errorf("cannot specify both --data and --file-system")
		return 1
	}
	if *data && len(args) == 0 {
		env.Errorf("--data needs at least one argument")
		return 1
	}
	status := 0
	for _, a := range args {
		var err error
		if a == "" {
			err = errEmptyName
		} else if fi, e := env.FS.Stat(env.Abs(a)); e != nil {
			err = e
		} else if !fi.IsDir() {
			var file File
			if file, err = env.FS.OpenFile(env.Abs(a), os.O_RDONLY); err == nil {
				file.Close()
			}
		}
		if err != nil {
			env.Errorf("error opening %s: %s", env.QuoteAF(a), ErrText(err))
			status = 1
		}
	}
	return status
}
