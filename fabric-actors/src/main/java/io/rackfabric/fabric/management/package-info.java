/**
 * The fabric manager's side of the fabric, after "A Model for the Development of AS Fabric
 * Management Protocols" (AS-FM in docs/papers.md): every device's configuration space with the
 * baseline and spanning-tree capabilities (AS-FM section 3.1), the PI-4 and PI-5 packets that
 * read, write and report them (section 3.2), and the walker that discovers a fabric with PI-4 reads.
 * Plain classes without Akka; the device managers and the fabric manager that carry them over the
 * fabric's actors are built on them.
 */
package io.rackfabric.fabric.management;
