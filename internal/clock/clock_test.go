package clock

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
)

// RealClock inside a synctest bubble runs in virtual time: the contract's point 3.
func TestRealClockInVirtualTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := Or(nil)
		start := c.Now()
		<-c.After(time.Minute)
		assert.Equal(t, time.Minute, c.Since(start))

		tm := c.NewTimer(time.Second)
		assert.True(t, tm.Reset(2*time.Second))
		<-tm.C()
		assert.Equal(t, time.Minute+2*time.Second, c.Since(start))
		assert.False(t, tm.Stop())

		tk := c.NewTicker(10 * time.Second)
		<-tk.C()
		<-tk.C()
		tk.Stop()
		assert.Equal(t, time.Minute+22*time.Second, c.Since(start))
	})
}
