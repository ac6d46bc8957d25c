package admission

import "github.com/informer-lab/informer-lab/apiserver/internal/cel"

// ExprRole is what a policy's expression is for, which fixes what it must return.
type ExprRole int

// The roles of a policy's expressions.
const (
	RoleCondition  ExprRole = iota // matchConditions: bool
	RoleVariable                   // variables: anything
	RoleValidation                 // validations[].expression: bool
	RoleMessage                    // validations[].messageExpression: string
	RoleAudit                      // auditAnnotations[].valueExpression: string or null
	RoleApply                      // mutations[].applyConfiguration: Object
	RoleJSONPatch                  // mutations[].jsonPatch: list(JSONPatch)
)

var roleTypes = map[ExprRole][]*cel.Type{
	RoleCondition:  {cel.BoolType},
	RoleValidation: {cel.BoolType},
	RoleMessage:    {cel.StringType},
	RoleAudit:      {cel.StringType, cel.NullType},
	RoleApply:      {cel.ObjectType("Object", nil)},
	RoleJSONPatch:  {cel.ListType(cel.ObjectType("JSONPatch", nil))},
}

// CheckExpression mirrors the compilation a policy's expressions get when the policy is
// written (validateValidation, validateVariable, validateMutation, ...): "" when src
// compiles to what its role must return, else the real detail ("must evaluate to bool
// but got dyn", "compilation failed: ERROR: ..."). mutating selects the mutating
// policies' environment, where Object{} and JSONPatch{} may be built.
// hasParams declares params, as a policy with a paramKind does.
func CheckExpression(role ExprRole, src string, mutating, hasParams bool) string {
	env := envFor(mutating, hasParams)
	if role == RoleMessage {
		env = messageEnv(hasParams)
	}
	return compileWith(env, src, roleTypes[role]...).err
}

// envFor is the environment of a policy's expressions: params only where the policy has
// a paramKind, Object{} and JSONPatch{} only in a mutating one; message expressions get
// no authorizer.
func envFor(mutating, hasParams bool) *cel.Env {
	return policyEnvs()[envKey{mutating, hasParams, true}]
}

// messageEnv is envFor without the authorizer.
func messageEnv(hasParams bool) *cel.Env {
	return policyEnvs()[envKey{false, hasParams, false}]
}
