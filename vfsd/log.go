package vfsd

import (
	"context"
	"log/slog"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// logRequest writes one structured line for a served request. Paths are
// logged in byte_names wire form (vfsproto.EncodeName), whatever the
// connection negotiated: a log line is JSON, and a byte that is not UTF-8
// would otherwise be U+FFFD there, another name.
func (s *Server) logRequest(j *job, code vfsproto.Code, n int) {
	attrs := []slog.Attr{
		slog.String("id", j.id),
		slog.String("op", j.op),
	}
	if j.path != "" {
		attrs = append(attrs, slog.String("path", vfsproto.EncodeName(j.path)))
	}
	if j.to != "" {
		attrs = append(attrs, slog.String("to", vfsproto.EncodeName(j.to)))
	}
	if j.h != 0 {
		attrs = append(attrs, slog.Int64("handle", j.h))
	}
	attrs = append(attrs, slog.Int("bytes", n))
	if code == "" {
		attrs = append(attrs, slog.String("code", "OK"))
	} else {
		attrs = append(attrs, slog.String("code", string(code)))
	}
	attrs = append(attrs, slog.Duration("duration", time.Since(j.start)))
	level := slog.LevelInfo
	if code != "" {
		level = slog.LevelWarn
	}
	s.log.LogAttrs(context.Background(), level, "request", attrs...)
}

// logRejected logs a frame that closes the connection.
func (c *conn) logRejected(start time.Time) {
	if l := c.s.log; l != nil {
		l.LogAttrs(context.Background(), slog.LevelError, "request",
			slog.String("code", "CLOSE"), slog.String("error", "malformed request without id"),
			slog.Duration("duration", time.Since(start)))
	}
}

// logClose logs the end of a connection on a protocol or stream error.
func (c *conn) logClose(err error) {
	if l := c.s.log; l != nil && err != ErrMalformed {
		l.LogAttrs(context.Background(), slog.LevelError, "connection closed", slog.String("error", err.Error()))
	}
}
