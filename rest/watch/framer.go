package watch

import (
	"errors"
	"fmt"
	"io"

	"github.com/informer-lab/informer-lab/rest/internal/wire"
)

// DefaultMaxFrameBytes mirrors the maxBytes of streaming.NewDecoder in apimachinery
// runtime/serializer/streaming: the largest watch event accepted by default, 16 MiB.
const DefaultMaxFrameBytes = 16 << 20

// errFrameTooLarge mirrors streaming.ErrObjectTooLarge.
var errFrameTooLarge = errors.New("object to decode was longer than maximum allowed size")

// jsonFrameReader mirrors the JSON framer of apimachinery util/framer plus the size check of
// the streaming decoder: it cuts a byte stream into top-level JSON objects. It scans bytes
// itself instead of using encoding/json's Decoder so that the size limit applies while
// reading (a hostile frame never gets buffered whole) and so that a frame costs no copy.
// Newlines between frames are allowed but not required, as on the wire (W4).
type jsonFrameReader struct {
	r   io.Reader
	max int
	// buf[off:n] is read but not yet returned.
	buf    []byte
	off, n int
	// rerr is a read error kept until the bytes read with it are used up.
	rerr error
}

func newJSONFrameReader(r io.Reader, max int) *jsonFrameReader {
	if max <= 0 {
		max = DefaultMaxFrameBytes
	}
	size := 32 << 10
	if size > max+1 {
		size = max + 1
	}
	return &jsonFrameReader{r: r, max: max, buf: make([]byte, size)}
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// next returns the next frame. The slice is valid only until the following call. At a clean
// end between frames it returns io.EOF; a read error between frames comes back as is.
// Content errors (garbage, a frame over the limit, and the stream ending or failing inside a
// frame, i.e. a truncated frame) come back as *streamDecodeError.
func (f *jsonFrameReader) next() ([]byte, error) {
	for {
		for f.off < f.n && isJSONSpace(f.buf[f.off]) {
			f.off++
		}
		if f.off < f.n {
			break
		}
		if err := f.fill(); err != nil {
			return nil, err
		}
	}
	if c := f.buf[f.off]; c != '{' {
		return nil, &streamDecodeError{fmt.Errorf("invalid character %q looking for the beginning of a watch event in %s", c, wire.Quote(f.buf[f.off:f.n]))}
	}
	depth, inString, escaped := 0, false, false
	i := f.off
	for {
		for ; i < f.n; i++ {
			c := f.buf[i]
			if inString {
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
				}
				continue
			}
			switch c {
			case '"':
				inString = true
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					if i+1-f.off > f.max {
						return nil, &streamDecodeError{fmt.Errorf("%w (%d bytes, limit %d)", errFrameTooLarge, i+1-f.off, f.max)}
					}
					frame := f.buf[f.off : i+1]
					f.off = i + 1
					return frame, nil
				}
			}
		}
		scanned := i - f.off
		if scanned > f.max {
			return nil, &streamDecodeError{fmt.Errorf("%w (more than %d bytes)", errFrameTooLarge, f.max)}
		}
		if err := f.fill(); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, &streamDecodeError{fmt.Errorf("the stream ended in the middle of an event after %d bytes: %w", scanned, err)}
		}
		i = f.off + scanned
	}
}

// fill reads more bytes, first moving the unreturned ones to the front and growing the
// buffer (up to max+1 bytes) when it is full.
func (f *jsonFrameReader) fill() error {
	if f.off > 0 {
		f.n = copy(f.buf, f.buf[f.off:f.n])
		f.off = 0
	}
	if f.n == len(f.buf) {
		size := 2 * len(f.buf)
		if size > f.max+1 {
			size = f.max + 1
		}
		if size <= len(f.buf) {
			// Only reachable when the frame already exceeds max.
			return &streamDecodeError{fmt.Errorf("%w (more than %d bytes)", errFrameTooLarge, f.max)}
		}
		grown := make([]byte, size)
		copy(grown, f.buf[:f.n])
		f.buf = grown
	}
	// A Read of 0 bytes and no error is retried a bounded number of times, as in
	// bufio.Reader.
	for range 100 {
		if f.rerr != nil {
			return f.rerr
		}
		m, err := f.r.Read(f.buf[f.n:])
		f.n += m
		f.rerr = err
		if m > 0 {
			return nil
		}
	}
	return io.ErrNoProgress
}
