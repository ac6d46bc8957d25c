package runner

import (
	"fmt"
	"sort"
	"strings"
)

// KindRow is the agreement of the cases about one group/Kind.
type KindRow struct {
	Kind                 string
	Cases, Agree, Differ int
}

// OtherKinds is the row of the cases about no kind in particular.
const OtherKinds = "(no kind)"

// KindGroup is the group of a kind row's "group/Kind" key ("core" for the legacy group).
func KindGroup(kind string) string {
	g, _, _ := strings.Cut(kind, "/")
	return g
}

// KindAgreement counts the results by the kind they are about, sorted by group/Kind, the
// cases about no kind last. A case differs when it ran and did not agree, or did not run.
func KindAgreement(results []Result) []KindRow {
	rows := map[string]*KindRow{}
	for _, r := range results {
		k := r.Kind
		if k == "" {
			k = OtherKinds
		}
		row := rows[k]
		if row == nil {
			row = &KindRow{Kind: k}
			rows[k] = row
		}
		row.Cases++
		if r.Agrees() {
			row.Agree++
		} else {
			row.Differ++
		}
	}
	out := make([]KindRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Kind == OtherKinds) != (out[j].Kind == OtherKinds) {
			return out[j].Kind == OtherKinds
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// KindTable renders the agreement per kind as a Markdown table.
func KindTable(rows []KindRow) string {
	var b strings.Builder
	b.WriteString("| group/kind | cases | agree | differ | agreement |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		pct := 0.0
		if r.Cases > 0 {
			pct = 100 * float64(r.Agree) / float64(r.Cases)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f%% |\n", r.Kind, r.Cases, r.Agree, r.Differ, pct)
	}
	return b.String()
}
