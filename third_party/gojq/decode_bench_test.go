package gojq_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/llmsh/llmsh/third_party/gojq"
)

// benchJSON is n objects of 7 keys, one nested, as bench/jq.sh makes.
func benchJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user-%d","region":%q,"score":%g,"tags":["x","y"],"meta":{"z":%d,"a":true,"m":"mid"},"ok":%t}`,
			i, i, []string{"Central", "East", "West"}[i%3], float64(i)*1.5, i, i%2 == 0)
	}
	b.WriteString("]\n")
	return b.Bytes()
}

// BenchmarkDecode reads JSON as the jq builtin does, a line at a time
// through SetBuf; BenchmarkDecodeStdlib is encoding/json with UseNumber,
// what llmsh's jq used before this decoder, for comparison.
func BenchmarkDecode(b *testing.B) {
	data := benchJSON(20000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d := gojq.NewDecoder(bytes.NewReader(data))
		for {
			if _, err := d.Decode(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkDecodeStdlib(b *testing.B) {
	data := benchJSON(20000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		for {
			var v any
			if err := d.Decode(&v); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
