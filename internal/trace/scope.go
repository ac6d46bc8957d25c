package trace

import (
	"log/slog"
	"slices"
)

// Scope is what a slog.Handler that reads hops keeps from WithAttrs and WithGroup: the
// attributes added so far, each inside the groups that were open when it was added. Every
// reader of the trace (the demo's tap, the scenario recorder, the dashboard's Hub) walks a
// record through its Scope with Walk, so that they all follow the same slog.Handler rules.
// It has no client-go counterpart.
//
// The zero Scope is the top level with no attributes. A Scope is a value that is never
// mutated once made: WithAttrs and WithGroup return new ones, so derived handlers can share
// their parent's.
type Scope struct {
	// frames[0] is the top level; each later frame is a group opened by WithGroup, holding
	// the attributes WithAttrs added inside it. nil means one empty top-level frame.
	frames []frame
}

// frame is one level of grouping: the group's name ("" for the top level) and the attributes
// WithAttrs added inside it.
type frame struct {
	group string
	attrs []slog.Attr
}

// WithAttrs returns the Scope with attrs added inside the innermost open group, as
// slog.Handler.WithAttrs requires, and true; attributes slog says to ignore (an empty key, a
// group with no members) are dropped, and when none is left it returns s itself and false, so
// a handler can return itself instead of a copy.
func (s Scope) WithAttrs(attrs []slog.Attr) (Scope, bool) {
	kept := make([]slog.Attr, 0, len(attrs))
	for _, a := range attrs {
		if !isEmptyAttr(a) {
			kept = append(kept, a)
		}
	}
	if len(kept) == 0 {
		return s, false
	}
	frames := slices.Clone(s.all())
	last := &frames[len(frames)-1]
	last.attrs = append(slices.Clip(last.attrs), kept...)
	return Scope{frames: frames}, true
}

// WithGroup returns the Scope with a group called name opened: later attributes, from
// WithAttrs or from a record, belong to it. An empty name is ignored, as slog requires.
func (s Scope) WithGroup(name string) Scope {
	if name == "" {
		return s
	}
	return Scope{frames: append(slices.Clip(s.all()), frame{group: name})}
}

func (s Scope) all() []frame {
	if len(s.frames) == 0 {
		return []frame{{}}
	}
	return s.frames
}

// EventKind says what an Event of Walk is.
type EventKind uint8

// The kinds of Event.
const (
	// EventAttr is one attribute to output, with a non-empty key and a resolved value that
	// is not a group.
	EventAttr EventKind = iota
	// EventOpen opens a group whose name is the event's Attr.Key; its members follow.
	EventOpen
	// EventClose closes the group most recently opened.
	EventClose
)

// Event is one step of Walk: an attribute, or the start or the end of a group.
type Event struct {
	Kind EventKind
	Attr slog.Attr
}

// Walk hands yield, in order, everything a handler must output for r: the Scope's attributes
// first, each group of the Scope opened around the ones added inside it and around the
// record's own attributes, then those. It applies the slog.Handler rules once for every
// reader: values are resolved (LogValuer), attributes with an empty key are left out, a group
// with nothing to output is left out altogether (a Scope group too), and a group attribute
// with an empty key is inlined. Opens and closes always pair up.
func (s Scope) Walk(r slog.Record, yield func(Event)) {
	var stack [8]slog.Attr // a trace hop has 4 to 6 attributes: gathering them allocates nothing
	rec := stack[:0]
	r.Attrs(func(a slog.Attr) bool {
		rec = append(rec, a)
		return true
	})
	walkFrames(s.all(), rec, yield)
}

// walkFrames walks frames[0]'s attributes and then, inside frames[1]'s group, everything
// deeper; the record's attributes go in the innermost frame.
func walkFrames(frames []frame, rec []slog.Attr, yield func(Event)) {
	for _, a := range frames[0].attrs {
		walkAttr(a, yield)
	}
	if len(frames) == 1 {
		for _, a := range rec {
			walkAttr(a, yield)
		}
		return
	}
	if !framesHaveContent(frames[1:], rec) {
		return
	}
	yield(Event{Kind: EventOpen, Attr: slog.Attr{Key: frames[1].group}})
	walkFrames(frames[1:], rec, yield)
	yield(Event{Kind: EventClose})
}

func walkAttr(a slog.Attr, yield func(Event)) {
	v := a.Value.Resolve()
	if v.Kind() != slog.KindGroup {
		if a.Key != "" {
			yield(Event{Kind: EventAttr, Attr: slog.Attr{Key: a.Key, Value: v}})
		}
		return
	}
	members := v.Group()
	if !hasContent(members) {
		return
	}
	if a.Key != "" {
		yield(Event{Kind: EventOpen, Attr: slog.Attr{Key: a.Key}})
	}
	for _, m := range members {
		walkAttr(m, yield)
	}
	if a.Key != "" {
		yield(Event{Kind: EventClose})
	}
}

func framesHaveContent(frames []frame, rec []slog.Attr) bool {
	for _, f := range frames {
		if hasContent(f.attrs) {
			return true
		}
	}
	return hasContent(rec)
}

// hasContent reports whether any of as would produce output.
func hasContent(as []slog.Attr) bool {
	for _, a := range as {
		v := a.Value.Resolve()
		if v.Kind() == slog.KindGroup {
			if hasContent(v.Group()) {
				return true
			}
			continue
		}
		if a.Key != "" {
			return true
		}
	}
	return false
}

// isEmptyAttr reports whether slog says a handler must ignore a: an empty key with a non-group
// value, or a group with no attributes.
func isEmptyAttr(a slog.Attr) bool {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		return len(v.Group()) == 0
	}
	return a.Key == ""
}
