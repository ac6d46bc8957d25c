package protobuf

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// envelope wraps raw as a Widget the way Encode does.
func envelope(raw []byte) []byte {
	b := append([]byte{}, magic...)
	b = appendBytesField(b, 1, []byte("\x0a\x07test/v1\x12\x06Widget"))
	b = appendBytesField(b, 2, raw)
	return append(b, 0x1a, 0x00, 0x22, 0x00)
}

func TestCh02_ProtobufBadInput(t *testing.T) {
	c := testCodec(t)
	good, err := c.Encode(widgetGVK, map[string]any{"name": "w", "tags": []any{"a"}})
	require.NoError(t, err)
	deep := []byte{}
	for range 100 {
		// a watch event whose object is an enveloped watch event, a hundred times over
		inner := append([]byte{}, magic...)
		inner = appendBytesField(inner, 1, []byte("\x0a\x02v1\x12\x0aWatchEvent"))
		inner = appendBytesField(inner, 2, appendBytesField(appendStringField(nil, 1, "ADDED"), 2, appendBytesField(nil, 1, deep)))
		deep = inner
	}
	tests := []struct {
		name    string
		data    []byte
		wantErr error // nil: any error
	}{
		{"empty", nil, ErrBadMagic},
		{"short magic", []byte("k8s"), ErrBadMagic},
		{"wrong magic", append([]byte("k8s\x01"), good[4:]...), ErrBadMagic},
		{"JSON", []byte(`{"kind":"Widget"}`), ErrBadMagic},
		{"length beyond the data", append(append([]byte{}, magic...), 0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f), ErrTruncated},
		{"varint over ten bytes", append(append([]byte{}, magic...), bytes.Repeat([]byte{0xff}, 11)...), ErrVarintOverflow},
		{"truncated raw", good[:len(good)-8], nil},
		{"field number zero", envelope([]byte{0x02, 0x00}), nil},
		{"wrong wire type for a string", envelope([]byte{0x10, 0x05}), nil},
		{"wrong wire type for a message", envelope([]byte{0x08, 0x01}), nil},
		{"unterminated group", envelope([]byte{0xfb, 0x03, 0x08, 0x01}), ErrTruncated},
		{"illegal wire type", envelope([]byte{0x0e}), nil},
		{"no kind", append(append([]byte{}, magic...), 0x12, 0x00), nil},
		{"unknown kind", append(append(append([]byte{}, magic...), 0x0a, 0x07, 0x0a, 0x01, 'v', 0x12, 0x02, 'N', 'o'), 0x12, 0x00), ErrUnknownKind},
		{"content encoding", append(envelope(nil), 0x1a, 0x04, 'g', 'z', 'i', 'p'), nil},
		{"nested too deeply", deep, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, obj, err := c.Decode(tt.data)
			require.Error(t, err)
			assert.Nil(t, obj)
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
			}
		})
	}
}

// TestCh02_ProtobufEveryPrefixIsSafe cuts a valid encoding at every byte: each prefix decodes
// or fails cleanly.
func TestCh02_ProtobufEveryPrefixIsSafe(t *testing.T) {
	c := testCodec(t)
	good, err := c.Encode(widgetGVK, map[string]any{"name": "w", "labels": map[string]any{"a": "b"},
		"port": "http", "since": "2026-01-01T00:00:00Z", "metadata": map[string]any{"name": "m"}})
	require.NoError(t, err)
	for i := range good {
		assert.NotPanics(t, func() { _, _, _ = c.Decode(good[:i]) })
		assert.NotPanics(t, func() { _, _, _, _ = c.DecodeWatchEvent(good[:i]) })
	}
}

func TestCh02_ProtobufSkipsUnknownFields(t *testing.T) {
	c := testCodec(t)
	raw, err := c.Marshal(widgetGVK, map[string]any{"name": "w"})
	require.NoError(t, err)
	// field 99 as a varint, field 98 as bytes, field 97 as fixed32, field 96 as a group
	extra := []byte{0x98, 0x06, 0x07, 0x92, 0x06, 0x01, 'x', 0x8d, 0x06, 1, 2, 3, 4, 0x83, 0x06, 0x08, 0x01, 0x84, 0x06}
	_, obj, err := c.Decode(envelope(append(extra, raw...)))
	require.NoError(t, err)
	assert.Equal(t, "w", obj["name"])
}

func TestCh02_ProtobufFramerRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewLengthDelimitedFrameWriter(&buf)
	frames := [][]byte{[]byte("first"), {}, bytes.Repeat([]byte("x"), 300)}
	for _, f := range frames {
		n, err := w.Write(f)
		require.NoError(t, err)
		assert.Equal(t, len(f), n)
	}
	assert.Equal(t, []byte{0, 0, 0, 5, 'f', 'i', 'r', 's', 't', 0, 0, 0, 0, 0, 0, 1, 0x2c}, buf.Bytes()[:17])

	r := NewLengthDelimitedFrameReader(io.NopCloser(bytes.NewReader(buf.Bytes())))
	for _, f := range frames {
		got, err := r.ReadFrame()
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	_, err := r.ReadFrame()
	assert.ErrorIs(t, err, io.EOF)

	// upstream's Read: a short buffer gets the frame in pieces, with io.ErrShortBuffer
	r = NewLengthDelimitedFrameReader(io.NopCloser(bytes.NewReader(buf.Bytes())))
	small := make([]byte, 3)
	n, err := r.Read(small)
	assert.Equal(t, 3, n)
	assert.ErrorIs(t, err, io.ErrShortBuffer)
	n, err = r.Read(small)
	assert.Equal(t, 2, n)
	assert.NoError(t, err)
	assert.Equal(t, "st", string(small[:n]))
	require.NoError(t, r.Close())
}

func TestCh02_ProtobufFramerBadInput(t *testing.T) {
	tests := []struct {
		name    string
		data    []byte
		max     int
		wantErr error
	}{
		{"frame over the maximum", []byte{0, 0, 1, 0, 'x'}, 255, ErrFrameTooLarge},
		{"huge length prefix", []byte{0xff, 0xff, 0xff, 0xff}, DefaultMaxFrameSize, ErrFrameTooLarge},
		{"truncated header", []byte{0, 0}, 10, io.ErrUnexpectedEOF},
		{"truncated body", []byte{0, 0, 0, 9, 'a'}, 10, io.ErrUnexpectedEOF},
		{"end of stream", nil, 10, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewLengthDelimitedFrameReaderSize(io.NopCloser(bytes.NewReader(tt.data)), tt.max)
			_, err := r.ReadFrame()
			assert.ErrorIs(t, err, tt.wantErr)
			r = NewLengthDelimitedFrameReaderSize(io.NopCloser(bytes.NewReader(tt.data)), tt.max)
			_, err = r.Read(make([]byte, 64))
			assert.ErrorIs(t, err, tt.wantErr)
		})
	}
}

func TestCh02_ProtobufWatchEventErrors(t *testing.T) {
	c := testCodec(t)
	for name, frame := range map[string][]byte{
		"no object":        appendStringField(nil, 1, "ADDED"),
		"wrong wire type":  {0x08, 0x01},
		"object not magic": appendBytesField(nil, 2, appendBytesField(nil, 1, []byte("[1]"))),
		"bad envelope":     appendBytesField(nil, 2, appendBytesField(nil, 1, []byte("k8s\x00\x0a"))),
	} {
		t.Run(name, func(t *testing.T) {
			_, _, _, err := c.DecodeWatchEvent(frame)
			assert.Error(t, err)
		})
	}
	_, err := c.EncodeWatchEvent("ADDED", api.GroupVersionKind{Kind: "Nope", Version: "v9"}, nil)
	assert.ErrorIs(t, err, ErrUnknownKind)
}
