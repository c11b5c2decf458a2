package builtins_test

import "testing"

// Headings and column widths as GNU df 9.1 prints them; vfsd reveals no
// figures, so each is '-'.
func TestDf(t *testing.T) {
	t.Parallel()
	files := map[string]string{"f": "x"}
	runLines(t, []linesCase{
		{files, []string{"df"}, "", "Filesystem     1K-blocks  Used Available Use% Mounted on\n" +
			"llmsh                  -     -         -    - /\n", "", 0},
		{files, []string{"df", "-h", "f"}, "", "Filesystem      Size  Used Avail Use% Mounted on\n" +
			"llmsh              -     -     -    - /\n", "", 0},
		{files, []string{"df", "-P"}, "", "Filesystem     1024-blocks  Used Available Capacity Mounted on\n" +
			"llmsh                    -     -         -        - /\n", "", 0},
		{files, []string{"df", "-iT"}, "", "Filesystem     Type  Inodes IUsed IFree IUse% Mounted on\n" +
			"llmsh          llmsh      -     -     -     - /\n", "", 0},
		{files, []string{"df", "--output=source,avail,target", "f"}, "", "Filesystem     Avail Mounted on\n" +
			"llmsh              - /\n", "", 0},
		{files, []string{"df", "nope"}, "", "", "df: nope: No such file or directory\n", 1},
		{files, []string{"df", "--output=bogus"}, "", "", "df: option --output: field 'bogus' unknown\nTry 'df --help' for more information.\n", 1},
		{files, []string{"df", "-t", "ext4"}, "", "", "df: no file systems processed\n", 1},
	})
}
