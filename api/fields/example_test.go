package fields_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api/fields"
)

func ExampleParseSelector() {
	sel, err := fields.ParseSelector("status.phase==Running,spec.nodeName!=")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.String()) // sorted, "==" printed as "="
	fmt.Println(sel.Matches(fields.Set{"status.phase": "Running", "spec.nodeName": "n1"}))
	fmt.Println(sel.Matches(fields.Set{"status.phase": "Running"})) // unscheduled: nodeName is ""

	_, err = fields.ParseSelector("a")
	fmt.Println(err)
	// Output:
	// spec.nodeName!=,status.phase=Running
	// true
	// false
	// invalid selector: 'a'; can't understand 'a'
}

func ExampleEscapeValue() {
	sel := fields.OneTermEqualSelector("metadata.annotations.note", `a,b=c\d`)
	fmt.Println(sel.String())

	back, _ := fields.ParseSelector(sel.String())
	v, _ := back.RequiresExactMatch("metadata.annotations.note")
	fmt.Println(v)
	// Output:
	// metadata.annotations.note=a\,b\=c\\d
	// a,b=c\d
}

func ExampleNothing() {
	for _, sel := range []fields.Selector{fields.Everything(), fields.Nothing()} {
		fmt.Printf("%q empty=%v matches=%v\n", sel.String(), sel.Empty(), sel.Matches(fields.Set{}))
	}
	// Output:
	// "" empty=true matches=true
	// "" empty=false matches=false
}
