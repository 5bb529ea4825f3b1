package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The numeric flags say what they take in one sentence of one shape,
// "--rounds must be a number from 1 to 10", whether the value is not a
// number or out of range, instead of pflag's "invalid argument ... for
// flag: strconv.ParseInt: ...".

// flagValueError is a flag value refused with the sentence to show.
type flagValueError struct{ msg string }

func (e *flagValueError) Error() string { return e.msg }

// flagError is err as the user should read it: a numeric flag's own
// sentence without pflag's wrapping around it.
func flagError(err error) error {
	var fe *flagValueError
	if errors.As(err, &fe) {
		return fe
	}
	return err
}

// numberRule is what a whole-number flag takes: "a number from 1 to 10",
// or with max 0 "a number of 1 or more".
func numberRule(lo, hi int) string {
	if hi == 0 {
		return fmt.Sprintf("a number of %d or more", lo)
	}
	return fmt.Sprintf("a number from %d to %d", lo, hi)
}

// badNumber is the sentence for a value the setting named label (a flag
// "--rounds" or a variable) cannot take.
func badNumber(label, rule, value string) error {
	return &flagValueError{msg: fmt.Sprintf("%s must be %s, not %q", label, rule, value)}
}

// parseNumber reads a whole number for the setting named label from lo to
// hi (hi 0: no upper bound).
func parseNumber(label, s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < lo || (hi != 0 && n > hi) {
		return 0, badNumber(label, numberRule(lo, hi), s)
	}
	return n, nil
}

// intFlag is a whole-number flag from lo to hi (hi 0: no upper bound).
type intFlag struct {
	p      *int
	name   string
	lo, hi int
}

func newIntFlag(p *int, def int, name string, lo, hi int) *intFlag {
	*p = def
	return &intFlag{p: p, name: name, lo: lo, hi: hi}
}

func (f *intFlag) String() string { return strconv.Itoa(*f.p) }
func (f *intFlag) Type() string   { return "int" }

func (f *intFlag) Set(s string) error {
	n, err := parseNumber("--"+f.name, s, f.lo, f.hi)
	if err != nil {
		return err
	}
	*f.p = n
	return nil
}

// int64Flag is a whole-number flag taking any value, like a seed.
type int64Flag struct {
	p    *int64
	name string
}

func newInt64Flag(p *int64, def int64, name string) *int64Flag {
	*p = def
	return &int64Flag{p: p, name: name}
}

func (f *int64Flag) String() string { return strconv.FormatInt(*f.p, 10) }
func (f *int64Flag) Type() string   { return "int" }

func (f *int64Flag) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return badNumber("--"+f.name, "a whole number", s)
	}
	*f.p = n
	return nil
}

// durationFlag is a positive duration flag.
type durationFlag struct {
	p    *time.Duration
	name string
}

func newDurationFlag(p *time.Duration, def time.Duration, name string) *durationFlag {
	*p = def
	return &durationFlag{p: p, name: name}
}

func (f *durationFlag) String() string { return f.p.String() }
func (f *durationFlag) Type() string   { return "duration" }

func (f *durationFlag) Set(s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return badNumber("--"+f.name, "a duration of more than 0 like 90s or 2m", s)
	}
	*f.p = d
	return nil
}
