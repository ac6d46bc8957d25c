package main

import (
	"io"
	"os"
)

// palette holds the ANSI sequences the printer uses; the zero palette prints plain text.
type palette struct {
	reset, bold, dim, red, green, yellow, blue, magenta, cyan string
}

var ansi = palette{
	reset: "\x1b[0m", bold: "\x1b[1m", dim: "\x1b[2m", red: "\x1b[31m", green: "\x1b[32m",
	yellow: "\x1b[33m", blue: "\x1b[34m", magenta: "\x1b[35m", cyan: "\x1b[36m",
}

// paint wraps s in code (and a reset) when code is set.
func (p palette) paint(code, s string) string {
	if code == "" || s == "" {
		return s
	}
	return code + s + p.reset
}

// component returns the colour of a pipeline stage, so each hop is recognisable at a glance.
func (p palette) component(c string) string {
	switch c {
	case "apiserver":
		return p.blue
	case "listwatch", "reflector":
		return p.cyan
	case "fifo", "indexer":
		return p.magenta
	case "processor", "listener", "handler":
		return p.green
	case "workqueue", "worker":
		return p.yellow
	}
	return ""
}

// colorMode is the --color flag: auto colours only a terminal, and NO_COLOR (any value)
// turns auto off, as https://no-color.org asks.
func usePalette(mode string, w io.Writer) (palette, error) {
	switch mode {
	case "always":
		return ansi, nil
	case "never":
		return palette{}, nil
	case "auto", "":
		if _, set := os.LookupEnv("NO_COLOR"); set {
			return palette{}, nil
		}
		if f, ok := w.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				return ansi, nil
			}
		}
		return palette{}, nil
	}
	return palette{}, errorf("--color must be auto, always or never, not %q", mode)
}
