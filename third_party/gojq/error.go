package gojq

import (
	"strconv"
	"strings"
)

// ValueError is an interface for errors with a value for internal function.
// Return an error implementing this interface when you want to catch error
// values (not error messages) by try-catch, just like built-in error function.
// Refer to [WithFunction] to add a custom internal function.
type ValueError interface {
	error
	Value() any
}

type expectedObjectError struct {
	v any
}

func (err *expectedObjectError) Error() string {
	return "expected an object but got: " + typeErrorPreview(err.v)
}

type expectedArrayError struct {
	v any
}

func (err *expectedArrayError) Error() string {
	return "expected an array but got: " + typeErrorPreview(err.v)
}

type iteratorError struct {
	v any
}

func (err *iteratorError) Error() string {
	return "Cannot iterate over " + typeErrorPreview(err.v)
}

type arrayIndexNegativeError struct {
	v int
}

func (err *arrayIndexNegativeError) Error() string {
	return "Out of bounds negative array index" // jq 1.7.1's words
}

type arrayIndexTooLargeError struct{}

func (*arrayIndexTooLargeError) Error() string {
	return "Array index too large" // jq 1.7.1's words
}

type repeatStringTooLargeError struct {
	s string
	n float64
}

func (err *repeatStringTooLargeError) Error() string {
	return "repeat string result too large: " + Preview(err.s) + " * " + Preview(err.n)
}

type objectKeyNotStringError struct {
	v any
}

func (err *objectKeyNotStringError) Error() string {
	return "Cannot use " + typeErrorPreview(err.v) + " as object key"
}

type lengthMismatchError struct{}

func (*lengthMismatchError) Error() string {
	return "length mismatch"
}

type inputNotAllowedError struct{}

func (*inputNotAllowedError) Error() string {
	return "input(s)/0 is not allowed"
}

type funcNotFoundError struct {
	f *Func
}

// Offset is where the name starts in the query text.
func (err *funcNotFoundError) Offset() int { return err.f.offset }

func (err *funcNotFoundError) Error() string {
	return err.f.Name + "/" + strconv.Itoa(len(err.f.Args)) + " is not defined"
}

type func0TypeError struct {
	name string
	v    any
}

func (err *func0TypeError) Error() string {
	return err.name + " cannot be applied to: " + typeErrorPreview(err.v)
}

// jqTypeError is a type error worded as jq 1.7.1's builtins word it:
// "number (5) has no keys".
type jqTypeError struct {
	v   any
	msg string
}

func (err *jqTypeError) Error() string {
	return typeErrorPreview(err.v) + " " + err.msg
}

// jqTypeError2 is jq's type_error2: "object ({...}) and object ({...})
// cannot be iterated over".
type jqTypeError2 struct {
	v, w any
	msg  string
}

func (err *jqTypeError2) Error() string {
	return typeErrorPreview(err.v) + " and " + typeErrorPreview(err.w) + " " + err.msg
}

type func1TypeError struct {
	name string
	v, w any
}

func (err *func1TypeError) Error() string {
	return err.name + "(" + Preview(err.w) + ") cannot be applied to: " + typeErrorPreview(err.v)
}

type func2TypeError struct {
	name    string
	v, w, x any
}

func (err *func2TypeError) Error() string {
	return err.name + "(" + Preview(err.w) + "; " + Preview(err.x) + ") cannot be applied to: " + typeErrorPreview(err.v)
}

type func0WrapError struct {
	name string
	v    any
	err  error
}

func (err *func0WrapError) Error() string {
	return err.name + " cannot be applied to " + Preview(err.v) + ": " + err.err.Error()
}

type func1WrapError struct {
	name string
	v, w any
	err  error
}

func (err *func1WrapError) Error() string {
	return err.name + "(" + Preview(err.w) + ") cannot be applied to " + Preview(err.v) + ": " + err.err.Error()
}

type func2WrapError struct {
	name    string
	v, w, x any
	err     error
}

func (err *func2WrapError) Error() string {
	return err.name + "(" + Preview(err.w) + "; " + Preview(err.x) + ") cannot be applied to " + Preview(err.v) + ": " + err.err.Error()
}

type exitCodeError struct {
	value any
	code  int
}

func (err *exitCodeError) Error() string {
	if s, ok := err.value.(string); ok {
		return "error: " + s
	}
	return "error: " + jsonMarshal(err.value)
}

func (err *exitCodeError) Value() any {
	return err.value
}

func (err *exitCodeError) ExitCode() int {
	return err.code
}

// HaltError is an error emitted by halt and halt_error functions.
// It implements [ValueError], and if the value is nil, discard the error
// and stop the iteration. Consider a query like "1, halt, 2";
// the first value is 1, and the second value is a HaltError with nil value.
// You might think the iterator should not emit an error this case, but it
// should so that we can recognize the halt error to stop the outer loop
// of iterating input values; echo 1 2 3 | gojq "., halt".
type HaltError exitCodeError

func (err *HaltError) Error() string {
	return "halt " + (*exitCodeError)(err).Error()
}

// Value returns the value of the error. This implements [ValueError],
// but halt error is not catchable by try-catch.
func (err *HaltError) Value() any {
	return (*exitCodeError)(err).Value()
}

// ExitCode returns the exit code of the error.
func (err *HaltError) ExitCode() int {
	return (*exitCodeError)(err).ExitCode()
}

type flattenDepthError struct {
	v float64
}

func (err *flattenDepthError) Error() string {
	return "flatten depth must not be negative"
}

type containsError struct {
	l, r any
}

func (err *containsError) Error() string {
	return typeErrorPreview(err.l) + " and " + typeErrorPreview(err.r) + " cannot have their containment checked"
}

type timeArrayError struct{}

func (*timeArrayError) Error() string {
	return "expected an array of 8 numbers"
}

type timeEpochError struct{}

func (*timeEpochError) Error() string {
	return "error converting number of seconds since epoch to datetime" // llmsh: jq 1.7.1's
}

type timeNumberError struct{}

func (*timeNumberError) Error() string {
	return "number is out of range"
}

type unaryTypeError struct {
	name string
	v    any
}

func (err *unaryTypeError) Error() string {
	if err.name == "negate" {
		return typeErrorPreview(err.v) + " cannot be negated" // jq 1.7.1's words
	}
	return "cannot " + err.name + ": " + typeErrorPreview(err.v)
}

type binopTypeError struct {
	name string
	l, r any
}

func (err *binopTypeError) Error() string {
	verb := map[string]string{"add": "added", "subtract": "subtracted", "multiply": "multiplied",
		"divide": "divided", "modulo": "divided (remainder)"}[err.name]
	if verb == "" {
		return "cannot " + err.name + ": " + typeErrorPreview(err.l) + " and " + typeErrorPreview(err.r)
	}
	return typeErrorPreview(err.l) + " and " + typeErrorPreview(err.r) + " cannot be " + verb
}

type zeroDivisionError struct {
	l, r any
}

func (err *zeroDivisionError) Error() string {
	return typeErrorPreview(err.l) + " and " + typeErrorPreview(err.r) + " cannot be divided because the divisor is zero"
}

type zeroModuloError struct {
	l, r any
}

func (err *zeroModuloError) Error() string {
	return typeErrorPreview(err.l) + " and " + typeErrorPreview(err.r) + " cannot be divided (remainder) because the divisor is zero"
}

type formatNotFoundError struct {
	n string
}

func (err *formatNotFoundError) Error() string {
	return strings.TrimPrefix(err.n, "@") + " is not a valid format"
}

type formatRowError struct {
	typ string
	v   any
}

func (err *formatRowError) Error() string {
	if err.typ == "sh" {
		return typeErrorPreview(err.v) + " can not be escaped for shell"
	}
	return typeErrorPreview(err.v) + " is not valid in a csv row" // @tsv's too, in jq 1.7.1
}

type numberRequiredError struct {
	v any
}

// jq 1.7.1's words for a math function's argument that is no number.
func (err *numberRequiredError) Error() string {
	return typeErrorPreview(err.v) + " number required"
}

// formatError is a value a format cannot take, in jq's words: the value,
// then what is wrong.
type formatError struct {
	v   any
	msg string
}

func (err *formatError) Error() string {
	return typeErrorPreview(err.v) + " " + err.msg
}

type tooManyVariableValuesError struct{}

func (*tooManyVariableValuesError) Error() string {
	return "too many variable values provided"
}

type expectedVariableError struct {
	n string
}

func (err *expectedVariableError) Error() string {
	return "variable defined but not bound: " + err.n
}

type variableNotFoundError struct {
	n      string
	offset int
}

// Offset is where the name starts in the query text.
func (err *variableNotFoundError) Offset() int { return err.offset }

func (err *variableNotFoundError) Error() string {
	return err.n + " is not defined"
}

type variableNameError struct {
	n string
}

func (err *variableNameError) Error() string {
	return "invalid variable name: " + err.n
}

type breakError struct {
	n string
	v any
}

func (err *breakError) Error() string {
	return "label not defined: " + err.n
}

func (*breakError) ExitCode() int {
	return 3
}

type tryEndError struct {
	err error
}

func (err *tryEndError) Error() string {
	return err.err.Error()
}

type invalidPathError struct {
	v any
}

func (err *invalidPathError) Error() string {
	return "Invalid path expression with result " + jqDumpTrunc(err.v, 30)
}

type invalidPathIterError struct {
	v any
}

func (err *invalidPathIterError) Error() string {
	return "Invalid path expression near attempt to iterate through " + jqDumpTrunc(err.v, 30)
}

type queryParseError struct {
	fname, contents string
	err             error
}

func (err *queryParseError) QueryParseError() (string, string, error) {
	return err.fname, err.contents, err.err
}

func (err *queryParseError) Error() string {
	return "invalid query: " + err.fname + ": " + err.err.Error()
}

type jsonParseError struct {
	fname, contents string
	err             error
}

func (err *jsonParseError) JSONParseError() (string, string, error) {
	return err.fname, err.contents, err.err
}

func (err *jsonParseError) Error() string {
	return "invalid json: " + err.fname + ": " + err.err.Error()
}

// jqDumpTrunc is jq's jv_dump_string_trunc into a buffer of size n: the
// JSON text of v, its last three bytes "..." when it does not fit.
func jqDumpTrunc(v any, n int) string {
	s := jsonMarshal(v)
	if len(s) > n-1 {
		s = s[:n-4] + "..."
	}
	return s
}

// typeErrorPreview names v as jq's messages do: its type and its JSON text,
// cut to 11 bytes and "..." when longer than 14.
func typeErrorPreview(v any) string {
	switch v.(type) {
	case Iter:
		return "gojq.Iter"
	default:
		s := jsonMarshal(v)
		if len(s) > 14 {
			s = s[:11] + "..."
		}
		return TypeOf(v) + " (" + s + ")"
	}
}

// indexError is indexing a value with a key of the wrong type, worded as
// jq words it.
type indexError struct {
	v, key any
}

func (err *indexError) Error() string {
	if k, ok := err.key.(string); ok && len(k) < 30 {
		// jq names a key of 30 bytes or more by its type only
		return "Cannot index " + TypeOf(err.v) + " with string " + jsonMarshal(k)
	}
	return "Cannot index " + TypeOf(err.v) + " with " + TypeOf(err.key)
}
