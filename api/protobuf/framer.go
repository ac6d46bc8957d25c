package protobuf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxFrameSize is the largest frame a reader accepts unless told otherwise: 16 MiB,
// the limit of apimachinery's streaming decoder.
const DefaultMaxFrameSize = 16 << 20

// ErrFrameTooLarge is returned for a frame whose length prefix exceeds the reader's maximum.
var ErrFrameTooLarge = errors.New("protobuf: frame exceeds the maximum size")

type lengthDelimitedFrameWriter struct {
	w io.Writer
}

// NewLengthDelimitedFrameWriter mirrors framer.NewLengthDelimitedFrameWriter in
// k8s.io/apimachinery pkg/util/framer: each Write sends a 4-byte big-endian length and then
// the bytes, so one Write is one frame.
func NewLengthDelimitedFrameWriter(w io.Writer) io.Writer {
	return &lengthDelimitedFrameWriter{w: w}
}

func (w *lengthDelimitedFrameWriter) Write(data []byte) (int, error) {
	if uint64(len(data)) > 0xffffffff {
		return 0, ErrFrameTooLarge
	}
	// one Write of header and body, so a frame is never split between two writers' output
	buf := make([]byte, 4+len(data))
	binary.BigEndian.PutUint32(buf, uint32(len(data)))
	copy(buf[4:], data)
	n, err := w.w.Write(buf)
	if n < 4 {
		return 0, err
	}
	return n - 4, err
}

// LengthDelimitedFrameReader reads the frames a LengthDelimitedFrameWriter writes. Its Read
// follows upstream's: a frame longer than the buffer fills it and returns io.ErrShortBuffer,
// and the next Read goes on with the same frame. ReadFrame returns one whole frame.
type LengthDelimitedFrameReader struct {
	r         io.ReadCloser
	max       int
	remaining int
}

// NewLengthDelimitedFrameReader mirrors framer.NewLengthDelimitedFrameReader in
// k8s.io/apimachinery pkg/util/framer, with frames limited to DefaultMaxFrameSize.
func NewLengthDelimitedFrameReader(r io.ReadCloser) *LengthDelimitedFrameReader {
	return NewLengthDelimitedFrameReaderSize(r, DefaultMaxFrameSize)
}

// NewLengthDelimitedFrameReaderSize is NewLengthDelimitedFrameReader with a maximum frame
// size of maxFrameSize bytes; a larger length prefix is ErrFrameTooLarge, before any of the
// frame is read or buffered. Ours: upstream leaves the limit to its streaming decoder.
func NewLengthDelimitedFrameReaderSize(r io.ReadCloser, maxFrameSize int) *LengthDelimitedFrameReader {
	return &LengthDelimitedFrameReader{r: r, max: maxFrameSize}
}

// header reads the next length prefix.
func (r *LengthDelimitedFrameReader) header() (int, error) {
	var h [4]byte
	if _, err := io.ReadFull(r.r, h[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return 0, fmt.Errorf("protobuf: truncated frame header: %w", err)
		}
		return 0, err
	}
	n := binary.BigEndian.Uint32(h[:])
	if uint64(n) > uint64(r.max) {
		return 0, fmt.Errorf("%w: %d > %d bytes", ErrFrameTooLarge, n, r.max)
	}
	return int(n), nil
}

// Read implements io.Reader with upstream's frame-at-a-time contract (see the type).
func (r *LengthDelimitedFrameReader) Read(data []byte) (int, error) {
	if r.remaining <= 0 {
		n, err := r.header()
		if err != nil {
			return 0, err
		}
		r.remaining = n
	}
	want := min(r.remaining, len(data))
	n, err := io.ReadFull(r.r, data[:want])
	r.remaining -= n
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return n, err
	}
	if r.remaining > 0 {
		return n, io.ErrShortBuffer
	}
	return n, nil
}

// ReadFrame returns the next whole frame in a new slice; io.EOF at a clean end of stream,
// io.ErrUnexpectedEOF inside a frame. Ours: what client-go's streaming decoder builds from
// repeated Reads.
func (r *LengthDelimitedFrameReader) ReadFrame() ([]byte, error) {
	if r.remaining > 0 {
		return nil, errors.New("protobuf: ReadFrame in the middle of a frame")
	}
	n, err := r.header()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r.r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}

// Close closes the underlying stream.
func (r *LengthDelimitedFrameReader) Close() error { return r.r.Close() }
