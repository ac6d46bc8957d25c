package builtinproto

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzDecode feeds arbitrary bytes to Decode and DecodeWatchEvent: they return an error or a
// tree, never panic or hang, and a tree they return encodes to bytes that decode to the same
// tree (when it encodes at all: a time beyond year 9999 decodes to text no parser reads).
// The seeds are whole objects, so minimising a new input takes a while: run it with
// -fuzzminimizetime=5s to keep the fuzzer busy finding rather than shrinking.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"Pod.pb", "Deployment.pb", "Status.pb", "PodList.pb", "Pod.frame"} {
		f.Add(readFile(f, name))
	}
	f.Add([]byte("k8s\x00"))
	f.Add([]byte("k8s\x00\x0a\x0f\x0a\x02v1\x12\x09Namespace\x12\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _, _ = DecodeWatchEvent(data)
		gvk, obj, err := Decode(data)
		if err != nil {
			return
		}
		again, err := Encode(gvk, obj)
		if err != nil {
			return
		}
		_, back, err := Decode(again)
		if err != nil {
			t.Fatalf("our own encoding does not decode: %v", err)
		}
		if diff := cmp.Diff(obj, back, cmpopts.EquateNaNs()); diff != "" {
			t.Fatalf("decode, encode, decode changed the tree (-first +second):\n%s", diff)
		}
	})
}

// FuzzFramer reads arbitrary streams with a small maximum: every frame returned fits the
// maximum, and the reader stops with an error rather than a panic; frames written are read
// back whole.
func FuzzFramer(f *testing.F) {
	f.Add([]byte{0, 0, 0, 3, 'a', 'b', 'c', 0, 0, 0, 0}, uint16(16))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff}, uint16(16))
	f.Add([]byte{0, 0, 0, 9, 'x'}, uint16(0))
	f.Fuzz(func(t *testing.T, stream []byte, max uint16) {
		r := NewLengthDelimitedFrameReader(io.NopCloser(bytes.NewReader(stream)), int(max)+1)
		for range len(stream) + 1 {
			frame, err := r.ReadFrame()
			if err != nil {
				break
			}
			if len(frame) > int(max)+1 {
				t.Fatalf("frame of %d bytes over the maximum %d", len(frame), int(max)+1)
			}
		}
		// upstream's Read over the same stream, with a tiny buffer
		r = NewLengthDelimitedFrameReader(io.NopCloser(bytes.NewReader(stream)), int(max)+1)
		buf := make([]byte, 3)
		for range 2*len(stream) + 2 {
			if _, err := r.Read(buf); err != nil && err != io.ErrShortBuffer {
				break
			}
		}
		// the stream's bytes as frames of at most max+1 bytes round-trip
		var out bytes.Buffer
		w := NewLengthDelimitedFrameWriter(&out)
		var frames [][]byte
		for rest := stream; len(rest) > 0; {
			n := min(len(rest), int(max)+1)
			frames = append(frames, rest[:n])
			if _, err := w.Write(rest[:n]); err != nil {
				t.Fatal(err)
			}
			rest = rest[n:]
		}
		if want := len(stream) + 4*len(frames); out.Len() != want {
			t.Fatalf("wrote %d bytes, want %d", out.Len(), want)
		}
		if len(frames) > 0 && binary.BigEndian.Uint32(out.Bytes()) != uint32(len(frames[0])) {
			t.Fatal("bad length prefix")
		}
		r = NewLengthDelimitedFrameReader(io.NopCloser(&out), int(max)+1)
		for _, want := range frames {
			got, err := r.ReadFrame()
			if err != nil || !bytes.Equal(want, got) {
				t.Fatalf("frame %q read back as %q, %v", want, got, err)
			}
		}
	})
}
