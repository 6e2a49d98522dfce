import LocationWire

/// PROTOCOL.md's read-all checksum: the wrapping sum of every field of a decoded message, read through the
/// structs' properties as an application would. Integers count as their 64-bit two's-complement value, bools as
/// 0 or 1, floats as their bit pattern, strings and bytes as their length, sub-messages recursively; absent
/// fields and unknown fields add nothing. C++ and upb compute the same sum with their own accessors, so a field
/// missed here (or there) shows as a mismatch in the run's cross-check.
protocol ReadAllChecksum {
    var readAllChecksum: UInt64 { get }
}

@inline(__always)
private func value(_ number: Int32?) -> UInt64 { number.map { UInt64(bitPattern: Int64($0)) } ?? 0 }
@inline(__always)
private func value(_ number: UInt32?) -> UInt64 { number.map { UInt64($0) } ?? 0 }
@inline(__always)
private func value(_ number: UInt64?) -> UInt64 { number ?? 0 }
@inline(__always)
private func value(_ number: Int64) -> UInt64 { UInt64(bitPattern: number) }
@inline(__always)
private func value(_ flag: Bool?) -> UInt64 { flag == true ? 1 : 0 }
@inline(__always)
private func value(_ text: String) -> UInt64 { UInt64(text.utf8.count) }
@inline(__always)
private func value(_ enumValue: Int32) -> UInt64 { UInt64(bitPattern: Int64(enumValue)) }
@inline(__always)
private func value(_ message: (some ReadAllChecksum)?) -> UInt64 { message?.readAllChecksum ?? 0 }
@inline(__always)
private func value(_ messages: [some ReadAllChecksum]) -> UInt64 {
    var sum: UInt64 = 0
    for message in messages { sum &+= message.readAllChecksum }
    return sum
}

extension LocationFix: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum = sequence &+ value(timeMs) &+ value(latitudeE7) &+ value(longitudeE7)
        sum &+= value(horizontalAccuracyCm) &+ value(altitudeCm) &+ value(verticalAccuracyCm) &+ value(speedCmS)
        sum &+= value(speedAccuracyCmS) &+ value(courseCdeg) &+ value(courseAccuracyCdeg) &+ value(elapsedRealtimeMs)
        sum &+= value(reason.rawValue) &+ value(source.rawValue) &+ value(batteryPercent)
        sum &+= value(batteryState.rawValue) &+ value(motionActivity.rawValue) &+ value(motionConfidencePct)
        sum &+= value(floor) &+ value(ageMs) &+ value(isMock) &+ value(ellipsoidalHeightCm)
        return sum &+ value(pressureHpaBits) &+ bootId
    }
}

extension FixColumn: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum = UInt64(presence.count)
        for delta in deltas { sum &+= UInt64(bitPattern: delta) }
        for run in runLengths { sum &+= UInt64(run) }
        return sum
    }
}

extension CompactFixes: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum = UInt64(count)
        for column in columns { sum &+= value(column) }
        return sum
    }
}

extension FenceEvent: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum = eventSequence &+ value(regionId) &+ regionVersion &+ assignmentVersion &+ value(kind.rawValue)
        sum &+= value(osEventTimeMs) &+ value(detectedAtMs) &+ value(triggerFix) &+ value(source.rawValue)
        return sum &+ value(detectedElapsedRealtimeMs) &+ value(dwellMs) &+ bootId
    }
}

extension LifecycleEvent: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        value(kind.rawValue) &+ value(timeMs) &+ value(elapsedRealtimeMs) &+ value(relaunchReason.rawValue) &+ bootId
    }
}

extension DeviceStatus: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum = value(observedAtMs) &+ value(authorization.rawValue) &+ value(accuracy.rawValue)
        sum &+= value(locationServicesEnabled) &+ value(backgroundRefreshEnabled) &+ value(lowPowerMode)
        return sum &+ value(platform.rawValue) &+ value(osVersion) &+ value(appVersion)
    }
}

extension ArmedRegions: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum = assignmentVersion
        for id in regionIds { sum &+= value(id) }
        for id in failedRegionIds { sum &+= value(id) }
        for reason in failureReasons { sum &+= value(reason.rawValue) }
        return sum
    }
}

extension LocationBatch: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum = value(deviceId) &+ batchId &+ bootId &+ value(sentAtMs) &+ value(sentElapsedRealtimeMs)
        sum &+= value(datum.rawValue) &+ value(fixes) &+ value(liveFix) &+ value(compactFixes) &+ value(fenceEvents)
        sum &+= value(deviceStatus) &+ value(lifecycleEvents) &+ value(armedRegions) &+ installId
        return sum &+ fixSequenceFloor &+ eventSequenceFloor &+ UInt64(protocolRevision)
    }
}

extension Circle: ReadAllChecksum {
    var readAllChecksum: UInt64 { value(centerLatitudeE7) &+ value(centerLongitudeE7) &+ UInt64(radiusM) }
}

extension Polygon: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum: UInt64 = 0
        for latitude in latitudesE7 { sum &+= value(latitude) }
        for longitude in longitudesE7 { sum &+= value(longitude) }
        return sum
    }
}

extension Region: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum = value(id) &+ version &+ value(circle) &+ value(polygon) &+ value(level.rawValue) &+ value(parentId)
        sum &+= value(notifyOnEntry) &+ value(notifyOnExit) &+ value(notifyOnDwell) &+ UInt64(loiteringDelayMs)
        return sum &+ UInt64(priority) &+ value(expiresAtMs) &+ value(refineOnEntry) &+ value(name)
    }
}

extension RefreshPolicy: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        value(refreshDistanceM) &+ value(anchorLatitudeE7) &+ value(anchorLongitudeE7) &+ value(onRefineEntry)
            &+ UInt64(minIntervalMs)
    }
}

extension RegionAssignment: ReadAllChecksum {
    var readAllChecksum: UInt64 {
        var sum = assignmentVersion &+ value(issuedAtMs) &+ value(expiresAtMs) &+ value(mode.rawValue) &+ baseVersion
        sum &+= value(regions) &+ value(monitoringEnabled) &+ UInt64(slotBudget) &+ value(refresh)
        for id in removedRegionIds { sum &+= value(id) }
        return sum &+ value(datum.rawValue)
    }
}
