package registry

import (
	"errors"
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The validation every write runs: the object metadata for every kind, then the strategy's
// causes (Validate and ValidateUpdate of the registries' strategies).

// Validate runs a create's validation: metadata for every kind, then the strategy's causes;
// a LateValidator's check only when those found nothing.
func Validate(res *Resource, obj *api.Unstructured) error {
	if g, ok := res.Strategy.(rest.GenericMetaValidator); ok && g.ValidatesMetaGenerically() {
		// BeforeCreate's order: the strategy's causes alone when it finds any, else the
		// generic metadata check, whose name rule is only a path segment's.
		if causes := res.Strategy.Validate(obj); len(causes) > 0 {
			return api.NewInvalid(invalidKind(res), obj.GetName(), causes)
		}
		return validation.ValidateObjectMetaWith(res.Info.GroupKind().String(), obj, validation.PathSegmentName, res.Info.Namespaced)
	}
	return validate(res, obj, true)
}

// invalidKind is the kind an Invalid Status names: the internal type's, which is the stored
// kind's (an events.k8s.io Event is "Event" of the core group).
func invalidKind(res *Resource) api.GroupKind {
	gvk := res.StorageGVK()
	return api.GroupKind{Group: gvk.Group, Kind: gvk.Kind}
}

// validate is Validate, with the strategy's own causes only when withStrategy.
func validate(res *Resource, obj *api.Unstructured, withStrategy bool) error {
	dnsLabel := false
	if n, ok := res.Strategy.(rest.DNSLabelNamer); ok {
		dnsLabel = n.NameIsDNSLabel()
	}
	var causes []api.StatusCause
	metaErr := validation.ValidateObjectMeta(res.Info.GroupKind().String(), obj, dnsLabel, res.Info.Namespaced)
	if n, ok := res.Strategy.(rest.NameValidator); ok {
		metaErr = validation.ValidateObjectMetaWith(res.Info.GroupKind().String(), obj, n.ValidateName, res.Info.Namespaced)
	}
	if err := metaErr; err != nil {
		var st *api.Status
		if !errors.As(err, &st) || st.Details == nil || len(st.Details.Causes) == 0 {
			return err
		}
		causes = st.Details.Causes
	}
	if n, ok := res.Strategy.(rest.UncheckedNamer); ok && n.NameIsUnchecked() {
		causes = withoutNameFormatCauses(causes)
	}
	if withStrategy {
		own := res.Strategy.Validate(obj)
		if n, ok := res.Strategy.(rest.UncheckedNamer); ok && n.NameIsUnchecked() {
			// The strategy's own name rule stands for ValidateObjectMeta's, whose name
			// causes come first.
			var named []api.StatusCause
			own = slices.DeleteFunc(own, func(c api.StatusCause) bool {
				if c.Field == "metadata.name" {
					named = append(named, c)
					return true
				}
				return false
			})
			causes = append(named, causes...)
		}
		causes = append(causes, own...)
	}
	if len(causes) > 0 {
		return api.NewInvalid(invalidKind(res), obj.GetName(), causes)
	}
	if lv, ok := res.Strategy.(rest.LateValidator); ok && withStrategy {
		return lv.ValidateLate(obj)
	}
	return nil
}

// ValidateUpdate is the update strategies' ValidateUpdate: ValidateObjectMetaAccessorUpdate's
// rule that no finalizer may be added once deletion has begun (422, ahead of any other
// cause), the kind's update rules, then the rules every write obeys.
func ValidateUpdate(res *Resource, obj, old *api.Unstructured) error {
	return validateUpdate(res, obj, old, nil)
}

// validateUpdate is ValidateUpdate sending the warnings validation adds (a custom
// resource's ratcheted rule failures) to warn, whether or not the update then fails, as
// warning.AddWarning does on the real server.
func validateUpdate(res *Resource, obj, old *api.Unstructured, warn func(...string)) error {
	causes := immutableMetaCauses(obj, old, !metaUpdateOnce[invalidKind(res)])
	if old.GetDeletionTimestamp() != nil {
		var extra []string
		for _, f := range obj.GetFinalizers() {
			if !slices.Contains(old.GetFinalizers(), f) && !slices.Contains(extra, f) {
				extra = append(extra, f)
			}
		}
		if len(extra) > 0 {
			slices.Sort(extra)
			causes = append(causes, validation.Forbidden("metadata.finalizers", fmt.Sprintf(
				"no new finalizers can be added if the object is being deleted, found new finalizers %#v", extra)))
		}
	}
	if f, ok := res.Strategy.(rest.FullUpdateValidator); ok && f.ValidatesUpdateFully() {
		return validateFullUpdate(res, obj, old, causes, warn)
	}
	causes = append(causes, res.Strategy.ValidateUpdate(obj, old)...)
	_, own := res.Strategy.(rest.OwnUpdateRules)
	err := validate(res, obj, !own)
	if len(causes) == 0 {
		return err
	}
	var st *api.Status
	if errors.As(err, &st) && st.Details != nil {
		causes = append(causes, st.Details.Causes...)
	} else if err != nil {
		return err
	}
	return api.NewInvalid(invalidKind(res), obj.GetName(), causes)
}

// validateFullUpdate is ValidateUpdate for a strategy that checks whole objects on update:
// the metadata's causes, then the strategy's.
func validateFullUpdate(res *Resource, obj, old *api.Unstructured, causes []api.StatusCause, warn func(...string)) error {
	if err := validation.ValidateObjectMeta(res.Info.GroupKind().String(), obj, false, res.Info.Namespaced); err != nil {
		var st *api.Status
		if !errors.As(err, &st) || st.Details == nil {
			return err
		}
		causes = append(causes, st.Details.Causes...)
	}
	causes = append(causes, res.Strategy.ValidateUpdate(obj, old)...)
	causes, warnings := structural.SplitWarnings(causes)
	if warn != nil && len(warnings) > 0 {
		warn(warnings...)
	}
	if len(causes) > 0 {
		return api.NewInvalid(res.Info.GroupKind(), obj.GetName(), causes)
	}
	if lv, ok := res.Strategy.(rest.LateValidator); ok {
		return lv.ValidateLate(obj)
	}
	return nil
}

// validateSubresource is Validate with a subresource's causes after the kind's.
func validateSubresource(res *Resource, obj *api.Unstructured, causes []api.StatusCause) error {
	err := Validate(res, obj)
	if len(causes) == 0 {
		return err
	}
	var st *api.Status
	if errors.As(err, &st) && st.Details != nil {
		causes = append(st.Details.Causes, causes...)
	} else if err != nil {
		return err
	}
	return api.NewInvalid(invalidKind(res), obj.GetName(), causes)
}

// metaUpdateOnce are the kinds whose strategy's ValidateUpdate does not repeat
// ValidateObjectMetaUpdate (it validates the new object as a create would), so that the
// metadata's update causes appear once.
var metaUpdateOnce = map[api.GroupKind]bool{
	{Kind: "PersistentVolume"}: true, {Kind: "LimitRange"}: true,
	{Group: "policy", Kind: "PodDisruptionBudget"}: true, {Group: "discovery.k8s.io", Kind: "EndpointSlice"}: true,
	{Group: "storage.k8s.io", Kind: "CSINode"}: true, {Group: "storage.k8s.io", Kind: "VolumeAttachment"}: true,
}

// immutableMetaCauses mirrors the immutable-field part of ValidateObjectMetaAccessorUpdate,
// which an update runs twice (rest.BeforeUpdate's common fields, then the strategy's
// ValidateObjectMetaUpdate) when twice: each cause appears twice, the message once.
func immutableMetaCauses(obj, old *api.Unstructured, twice bool) []api.StatusCause {
	var causes []api.StatusCause
	if obj.GetNamespace() != old.GetNamespace() {
		causes = append(causes, validation.Invalid("metadata.namespace", obj.GetNamespace(), "field is immutable"))
	}
	if obj.GetUID() != old.GetUID() {
		causes = append(causes, validation.Invalid("metadata.uid", obj.GetUID(), "field is immutable"))
	}
	if twice {
		causes = append(causes, causes...)
	}
	return causes
}
