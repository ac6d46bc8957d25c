package fieldmanager

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// conflict mirrors merge.Conflict: a manager (its identifier) and a path.
type conflict struct {
	manager string
	path    fp.Path
}

// list mirrors ConflictsFromManagers. Upstream ranges over a Go map, so the order of
// managers varies from call to call; here they come sorted by identifier (the order the
// message lists them in), each manager's paths in set order.
func (c *conflictError) list() []conflict {
	ids := make([]string, 0, len(c.managers))
	for m := range c.managers {
		ids = append(ids, m)
	}
	sort.Strings(ids)
	var out []conflict
	for _, m := range ids {
		c.managers[m].Iterate(func(p fp.Path) {
			out = append(out, conflict{manager: m, path: p.Copy()})
		})
	}
	return out
}

// printManager mirrors printManager in managedfields/internal/conflict.go: the name quoted,
// the subresource, and for an Update manager the apiVersion it wrote at.
func printManager(id string) string {
	e := parseIdentifier(id)
	if e.Manager == "" && e.Operation == "" {
		return fmt.Sprintf("%q", id)
	}
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s = fmt.Sprintf("%s with subresource %q", s, e.Subresource)
	}
	if e.Operation == OperationUpdate {
		return fmt.Sprintf("%s using %v", s, e.APIVersion)
	}
	return s
}

// conflictMessage mirrors getConflictMessage.
func conflictMessage(cs []conflict) string {
	if len(cs) == 1 {
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %v: %v", printManager(cs[0].manager), cs[0].path)
	}
	byManager := map[string][]fp.Path{}
	var ids []string
	for _, c := range cs {
		if _, ok := byManager[c.manager]; !ok {
			ids = append(ids, c.manager)
		}
		byManager[c.manager] = append(byManager[c.manager], c.path)
	}
	sort.Strings(ids)
	var lines []string
	for _, id := range ids {
		lines = append(lines, fmt.Sprintf("conflicts with %v:", printManager(id)))
		for _, p := range byManager[id] {
			lines = append(lines, fmt.Sprintf("- %v", p))
		}
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(cs), strings.Join(lines, "\n"))
}

// CauseTypeFieldManagerConflict mirrors metav1.CauseTypeFieldManagerConflict.
const CauseTypeFieldManagerConflict api.CauseType = "FieldManagerConflict"

// conflictStatus mirrors NewConflictError and apierrors.NewApplyConflict: 409 Conflict,
// one cause per conflicting field.
func conflictStatus(cs []conflict) *api.Status {
	causes := make([]api.StatusCause, len(cs))
	for i, c := range cs {
		causes[i] = api.StatusCause{
			Type:    CauseTypeFieldManagerConflict,
			Message: fmt.Sprintf("conflict with %v", printManager(c.manager)),
			Field:   c.path.String(),
		}
	}
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure,
		Code:     http.StatusConflict,
		Reason:   api.StatusReasonConflict,
		Message:  conflictMessage(cs),
		Details:  &api.StatusDetails{Causes: causes},
	}
}
