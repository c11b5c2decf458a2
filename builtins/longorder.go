package builtins

// gnuLongOrder holds, for the GNU tools whose option tables list long
// options in another order than llmsh's --help does, the long names of
// each table in its order (only the names that share a first letter
// with another: those an ambiguous prefix lists). Made from the tools on
// Debian 12 (coreutils 9.1, grep 3.8, sed 4.9, diffutils 3.8, tar 1.34,
// patch 2.7.6, gzip 1.12, xz 5.4.1, file 5.44, util-linux 2.38) with
// `TOOL --X` for each letter X where llmsh's list differed (session 29).
var gnuLongOrder = map[string]string{
	"rm":       "verbose version",
	"head":     "verbose version",
	"mkdir":    "verbose version",
	"readlink": "verbose version",
	"join":     "header help",
	"numfmt":   "header help",
	"pr":       "header help",
	"cmp":      "verbose version",
	"cat":      "number-nonblank number squeeze-blank show-nonprinting show-ends show-tabs show-all",
	"chgrp":    "recursive reference",
	"chmod":    "recursive reference verbose version",
	"chown":    "recursive reference",
	"column":   "output-separator output-width table table-columns table-columns-limit table-hide table-name table-noextreme table-noheadings table-order table-right table-truncate table-wrap table-empty-lines table-header-repeat tree tree-id tree-parent",
	"cp":       "parents preserve recursive remove-destination reflink sparse strip-trailing-slashes suffix symbolic-link verbose version",
	"csplit":   "silent suffix-format suppress-matched",
	"date":     "date debug reference resolution rfc-email rfc-822 rfc-2822 rfc-3339",
	"diff":     "changed-group-format color context ed exclude exclude-from expand-tabs ifdef ignore-all-space ignore-blank-lines ignore-case ignore-file-name-case ignore-matching-lines ignore-space-change ignore-tab-expansion ignore-trailing-space inhibit-hunk-merge initial-tab label left-column line-format new-file new-group-format new-line-format no-dereference no-ignore-file-name-case normal rcs recursive report-identical-files sdiff-merge-assist show-c-function show-function-line side-by-side speed-large-files starting-file strip-trailing-cr suppress-blank-empty suppress-common-lines tabsize text to-file unchanged-group-format unchanged-line-format unidirectional-new-file unified help horizon-lines",
	"diff3":    "easy-only ed",
	"du":       "dereference dereference-args exclude exclude-from null no-dereference si separate-dirs summarize human-readable help",
	"env":      "default-signal debug ignore-environment ignore-signal",
	"file":     "magic-file mime mime-type mime-encoding no-dereference no-buffer no-pad no-sandbox print0 preserve-date parameter",
	"grep":     "basic-regexp before-context binary-files byte-offset binary context color colour count devices directories dereference-recursive fixed-regexp file files-with-matches files-without-match include ignore-case initial-tab invert-match label line-buffered line-number line-regexp no-ignore-case no-filename no-group-separator no-messages null null-data recursive regexp with-filename word-regexp",
	"gzip":     "list license lzw stdout silent synchronous suffix verbose version",
	"install":  "strip strip-program suffix verbose version",
	"ln":       "no-dereference no-target-directory suffix symbolic",
	"ls":       "classify color context directory dired dereference-command-line dereference-command-line-symlink-to-dir dereference full-time file-type format human-readable hide-control-chars hide hyperlink help inode ignore-backups ignore indicator-style numeric-uid-gid no-group size si show-control-chars sort tabsize time time-style",
	"mv":       "strip-trailing-slashes suffix verbose version",
	"nl":       "no-renumber number-separator number-width number-format starting-line-number section-delimiter header-numbering help",
	"patch":    "backup batch basename-prefix binary backup-if-mismatch directory debug dry-run force fuzz forward follow-symlinks remove-empty-files reject-file reverse reject-format read-only strip silent set-time suffix set-utc version version-control verbose",
	"sdiff":    "ignore-all-space ignore-blank-lines ignore-case ignore-matching-lines ignore-space-change ignore-tab-expansion ignore-trailing-space speed-large-files strip-trailing-cr suppress-common-lines tabsize text",
	"sed":      "silent sandbox separate",
	"sort":     "debug dictionary-order merge month-sort human-numeric-sort help version-sort version",
	"split":    "lines line-bytes hex-suffixes help verbose version",
	"tail":     "silent sleep-interval verbose version",
	"tar":      "append atime-preserve acls auto-compress absolute-names after-date add-file anchored blocking-factor bzip2 backup block-number create compare catenate concatenate check-device clamp-mtime compress checkpoint checkpoint-action check-links confirmation diff delete delay-directory-restore dereference directory extract exclude exclude-from exclude-caches exclude-caches-under exclude-caches-all exclude-tag exclude-ignore exclude-ignore-recursive exclude-tag-under exclude-tag-all exclude-vcs exclude-vcs-ignores exclude-backups file force-local format full-time files-from get group group-map gzip gunzip incremental ignore-failed-read ignore-command-error info-script ignore-zeros index-file interactive ignore-case keep-old-files keep-newer-files keep-directory-symlink list listed-incremental level label lzip lzma lzop mtime mode multi-volume no-seek no-check-device no-overwrite-dir no-ignore-command-error no-same-owner numeric-owner no-same-permissions no-delay-directory-restore no-xattrs no-selinux no-acls new-volume-script no-auto-compress newer newer-mtime no-quote-chars null no-null no-unquote no-verbatim-files-from no-recursion no-anchored no-ignore-case no-wildcards no-wildcards-match-slash occurrence overwrite overwrite-dir one-top-level owner owner-map old-archive one-file-system preserve-permissions preserve-order portability posix pax-option program-name remove-files recursive-unlink rmt-command rsh-command record-size read-full-records restrict recursion sparse sparse-version seek skip-old-files same-owner same-permissions same-order sort selinux starting-file suffix strip-components show-defaults show-snapshot-field-ranges show-omitted-dirs show-transformed-names show-stored-names test-label to-stdout to-command touch tape-length transform totals update unlink-first use-compress-program ungzip uncompress utc unquote usage xattrs xattrs-include xattrs-exclude xz xform",
	"timeout":  "verbose version",
	"xargs":    "eof exit max-lines max-args max-chars max-procs null no-run-if-empty verbose version",
	"xz":       "force files files0 format flush-timeout fast list lzma1 lzma2 long-help stdout single-stream suffix sparc",
}

// gnuLongOrderOf names the tool whose table a command shares.
var gnuLongOrderOf = map[string]string{"egrep": "grep", "fgrep": "grep", "dir": "ls", "vdir": "ls",
	"gunzip": "gzip", "zcat": "gzip", "unxz": "xz", "xzcat": "xz"}

// setLongOrder gives f the option table order of the command name.
func setLongOrder(f *Flags, name string) {
	if t, ok := gnuLongOrderOf[name]; ok {
		name = t
	}
	if names, ok := gnuLongOrder[name]; ok {
		f.SetOrder(names)
	}
}
