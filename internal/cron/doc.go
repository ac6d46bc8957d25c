// Package cron parses the schedules of CronJobs and computes their next activation, as the
// github.com/robfig/cron/v3 parser that kube-controller-manager's CronJob controller and the
// apiserver's CronJob validation use (cron.ParseStandard). It is written here from that
// package's documented behaviour, so the lab needs no dependency.
//
// The contract:
//
//  1. ParseStandard accepts five fields (minute, hour, day of month, month, day of week),
//     each a comma-separated list of "*", "?", a value, a range "a-b", and an optional
//     step "/n"; months and weekdays also by their three-letter English names, in any case.
//     Weekdays run 0 (Sunday) to 6: 7 is rejected, as robfig's parser rejects it.
//  2. It accepts the descriptors @yearly, @annually, @monthly, @weekly, @daily, @midnight,
//     @hourly and "@every <duration>", and a leading "TZ=<zone> " or "CRON_TZ=<zone> " that
//     fixes the zone the fields are read in (time.LoadLocation).
//  3. When both day fields are restricted, a day matches if either does ("0 0 1 * MON" is
//     every 1st and every Monday); when one is "*" or "?", both must. A step over "*"
//     ("*/2") counts as a restriction.
//  4. Next returns the first activation strictly after t, in t's location; a spec without a
//     zone is read in t's own location. A spec that never fires within five years gives
//     the zero time.
package cron
