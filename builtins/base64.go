package builtins

var _ = register(Builtin{Name: "base64", Summary: "base64 encode/decode data and print to standard output", Run: base64Cmd})

func base64Cmd(env *Env) int {
	return bencRun(env, &bencBase64, "Base64 encode or decode FILE, or standard input, to standard output.", nil)
}
