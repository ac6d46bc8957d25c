package reflector

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/internal/clock"
)

// The reflector's default backoff: 0.8 s doubling, full jitter, capped at 30 s, reset
// every 2 minutes. With these numbers a failing apiserver sees one request every 30–60 s
// instead of one per second.
const (
	defaultBackoffInit   = 800 * time.Millisecond
	defaultBackoffMax    = 30 * time.Second
	defaultBackoffReset  = 2 * time.Minute
	defaultBackoffFactor = 2.0
	defaultBackoffJitter = 1.0
	// defaultBackoffSteps is ceil(30s / 0.8s): the cap is reached long before the steps run out.
	defaultBackoffSteps = 38
)

// DefaultBackoff mirrors the wait.Backoff literal NewReflectorWithOptions builds in client-go
// tools/cache/reflector.go when ReflectorOptions.Backoff is nil.
func DefaultBackoff() Backoff {
	return Backoff{
		Duration: defaultBackoffInit,
		Factor:   defaultBackoffFactor,
		Jitter:   defaultBackoffJitter,
		Steps:    defaultBackoffSteps,
		Cap:      defaultBackoffMax,
	}
}

// Backoff mirrors wait.Backoff in apimachinery pkg/util/wait/backoff.go: an exponential
// sequence of delays. Only Rand is ours: upstream draws jitter from a package-level source,
// which a test cannot pin down.
type Backoff struct {
	// Duration is the current base delay.
	Duration time.Duration
	// Factor multiplies the base after each step (0 keeps it constant).
	Factor float64
	// Jitter > 0 stretches each delay uniformly into [base, base*(1+Jitter)).
	Jitter float64
	// Steps is how many more times the base may grow; once it reaches 0 the base is frozen.
	Steps int
	// Cap bounds the base: the step that would exceed it sets the base to Cap and ends growth.
	Cap time.Duration
	// Rand returns a number in [0, 1) for the jitter; nil means math/rand/v2.
	Rand func() float64
}

// DelayFunc mirrors wait.DelayFunc: each call returns the next delay to wait.
type DelayFunc func() time.Duration

// Step mirrors Backoff.Step: it returns the next delay and advances the base.
func (b *Backoff) Step() time.Duration {
	if b == nil {
		return 0
	}
	// The delay is the jittered current base; jitter never feeds into the next base.
	current := b.Duration
	if b.Steps >= 1 {
		b.Steps--
		if b.Factor != 0 {
			next := time.Duration(float64(b.Duration) * b.Factor)
			if b.Cap > 0 && next > b.Cap {
				next = b.Cap
				b.Steps = 0
			}
			b.Duration = next
		}
	}
	if b.Jitter > 0 {
		return jitter(current, b.Jitter, b.Rand)
	}
	return current
}

// jitter mirrors wait.Jitter: d plus up to factor*d, drawn from rnd.
func jitter(d time.Duration, factor float64, rnd func() float64) time.Duration {
	if rnd == nil {
		rnd = rand.Float64
	}
	return d + time.Duration(rnd()*factor*float64(d))
}

// DelayFunc mirrors Backoff.DelayFunc: a DelayFunc over a private copy of b, so the caller's
// value never changes.
func (b Backoff) DelayFunc() DelayFunc {
	return b.Step
}

// DelayWithReset mirrors Backoff.DelayWithReset (apimachinery v0.36+): the returned DelayFunc
// restarts the sequence from b when more than resetInterval has passed since the last restart
// (initially: now). The restart time moves only on a restart, so even back-to-back failures
// go back to the first delay every resetInterval. It is safe for concurrent use: every
// retry path of a Reflector shares one. Factor <= 0 or resetInterval <= 0 disable the
// reset, as upstream.
func (b Backoff) DelayWithReset(c clock.Clock, resetInterval time.Duration) DelayFunc {
	if b.Factor <= 0 {
		return b.DelayFunc()
	}
	if resetInterval <= 0 {
		b.Steps, b.Factor = 0, 0
		return b.DelayFunc()
	}
	c = clock.Or(c)
	m := &backoffManager{initial: b, current: b, resetInterval: resetInterval, clock: c, lastReset: c.Now()}
	return m.step
}

// backoffManager mirrors the unexported backoffManager behind DelayWithReset.
type backoffManager struct {
	mu            sync.Mutex
	initial       Backoff
	current       Backoff
	resetInterval time.Duration
	clock         clock.Clock
	lastReset     time.Time
}

func (m *backoffManager) step() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	if now := m.clock.Now(); now.Sub(m.lastReset) > m.resetInterval {
		m.current = m.initial
		m.lastReset = now
	}
	return m.current.Step()
}
