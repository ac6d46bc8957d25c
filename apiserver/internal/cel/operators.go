package cel

// Function names of CEL's operators, as cel-go's common/operators spells them.
const (
	opConditional      = "_?_:_"
	opLogicalAnd       = "_&&_"
	opLogicalOr        = "_||_"
	opLogicalNot       = "!_"
	opEquals           = "_==_"
	opNotEquals        = "_!=_"
	opLess             = "_<_"
	opLessEquals       = "_<=_"
	opGreater          = "_>_"
	opGreaterEquals    = "_>=_"
	opAdd              = "_+_"
	opSubtract         = "_-_"
	opMultiply         = "_*_"
	opDivide           = "_/_"
	opModulo           = "_%_"
	opNegate           = "-_"
	opIndex            = "_[_]"
	opOptIndex         = "_[?_]"
	opOptSelect        = "_?._"
	opIn               = "@in"
	opNotStrictlyFalse = "@not_strictly_false"
	opMapInsert        = "cel.@mapInsert"
)
