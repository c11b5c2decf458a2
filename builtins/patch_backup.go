package builtins

import (
	"fmt"
	"path"
)

// backupControl settles how patch names its backups, from -V or the
// script's PATCH_VERSION_CONTROL or VERSION_CONTROL, and
// SIMPLE_BACKUP_SUFFIX; a bad style is reported as GNU patch does, before
// anything is patched (false).
func (p *patcher) backupControl(o *patchCmdOpts) bool {
	env := p.env
	p.simpleSuffix = ".orig"
	if s, ok := envLookup(env.Environ, "SIMPLE_BACKUP_SUFFIX"); ok && s != "" {
		p.simpleSuffix = s
	}
	control, context := o.control, "--version-control or -V option"
	if !o.controlSet {
		context = "$VERSION_CONTROL"
		var ok bool
		if control, ok = envLookup(env.Environ, "PATCH_VERSION_CONTROL"); !ok {
			control, _ = envLookup(env.Environ, "VERSION_CONTROL")
		}
	}
	p.backupKind = backupExisting
	if control == "" {
		return true
	}
	// none and off make numbered backups in GNU patch 2.7.6: -b asks
	// for a backup, and gnulib's naming numbers it.
	kind, err := lsArgMatch(env, context, control,
		[]string{"none", "off", "simple", "never", "existing", "nil", "numbered", "t"},
		[]int{backupNumbered, backupNumbered, backupSimple, backupSimple, backupExisting, backupExisting, backupNumbered, backupNumbered})
	if err != nil {
		msg, _ := usageMessage(err)
		fmt.Fprintf(env.Stderr, "patch: %s\n", msg)
		return false
	}
	p.backupKind = kind
	return true
}

// backupName is the name of name's backup: PREFIX, the directory,
// BASENAME-PREFIX, the base name and SUFFIX when -B, -Y or -z is given,
// else name with the simple suffix or a number (-V).
func (p *patcher) backupName(name string) string {
	if p.backupPrefix != "" || p.backupBasePrefix != "" || p.backupSuffix != "" {
		dir, base := path.Split(name)
		return p.backupPrefix + dir + p.backupBasePrefix + base + p.backupSuffix
	}
	b := backupOpts{kind: p.backupKind, suffix: p.simpleSuffix}
	return b.backupName(p.env, name, p.env.Abs(name))
}
