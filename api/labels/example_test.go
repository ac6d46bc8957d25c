package labels_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api/labels"
)

func ExampleParse() {
	sel, err := labels.Parse("tier in (db,cache), app=web, !canary")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.String()) // canonical: sorted by key
	fmt.Println(sel.Matches(labels.Set{"app": "web", "tier": "db"}))
	fmt.Println(sel.Matches(labels.Set{"app": "web", "tier": "db", "canary": "true"}))

	_, err = labels.Parse("a b")
	fmt.Println(err)
	// Output:
	// app=web,!canary,tier in (cache,db)
	// true
	// false
	// unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt
}

// != selects objects that lack the label too, which surprises people the first time.
func ExampleSelector_notEquals() {
	sel, _ := labels.Parse("env!=prod")
	fmt.Println(sel.Matches(labels.Set{"env": "dev"}))
	fmt.Println(sel.Matches(labels.Set{"env": "prod"}))
	fmt.Println(sel.Matches(labels.Set{}))
	// Output:
	// true
	// false
	// true
}

func ExampleNewRequirement() {
	r, err := labels.NewRequirement("replicas", labels.GreaterThan, []string{"2"})
	if err != nil {
		panic(err)
	}
	sel := labels.Everything().Add(*r)
	fmt.Println(sel.String())
	fmt.Println(sel.Matches(labels.Set{"replicas": "3"}))
	// Output:
	// replicas>2
	// true
}

func ExampleMatchesNothing() {
	for _, sel := range []labels.Selector{labels.Everything(), labels.Nothing()} {
		fmt.Printf("%q empty=%v nothing=%v\n", sel.String(), sel.Empty(), labels.MatchesNothing(sel))
	}
	// Output:
	// "" empty=true nothing=false
	// "" empty=false nothing=true
}

func ExampleSet_AsSelector() {
	sel := labels.Set{"tier": "db", "app": "web"}.AsSelector()
	fmt.Println(sel)
	// Output: app=web,tier=db
}
